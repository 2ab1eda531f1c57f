import { describe, expect, it } from "vitest";
import { compileOutputGlobs } from "../../packages/shell/src/workspace/output-globs.js";

// Output globs are the model's: matching them against the names in out/ runs on the agent's event loop, so the time
// must stay linear in name × pattern whatever the pattern. (Bounded by the test timeout: a backtracking matcher takes
// seconds to hours on these.)

function matcher(glob: string) {
  const compiled = compileOutputGlobs([glob]);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.match;
}

describe("output globs match in linear time", () => {
  it.each([
    ["stars separated by one letter, a 40-letter name", "*a*a*a*a*a*a*a*a*a*az", "a".repeat(40)],
    ["stars separated by one letter, a 200-letter name", `${"*a".repeat(40)}z`, "a".repeat(200)],
    ["question marks and stars", `${"?*".repeat(60)}z`, "a".repeat(200)],
    ["stars inside braces", `{${"*a".repeat(12)}z,${"*a".repeat(12)}y}`, "a".repeat(200)],
    ["globstars between letters", `${"**/a".repeat(30)}z`, "a/".repeat(100) + "b"],
  ])(
    "%s",
    (_name, glob, name) => {
      expect(matcher(glob)(name)).toBe(false);
    },
    5_000,
  );

  it("refuses patterns beyond the length, segment and alternative bounds before use", () => {
    expect(compileOutputGlobs(["{a,b}".repeat(20)]).ok).toBe(false);
    expect(compileOutputGlobs(["a/".repeat(100) + "b"]).ok).toBe(false);
    expect(compileOutputGlobs(["{".repeat(10) + "a" + "}".repeat(10)]).ok).toBe(false);
  });

  it("refuses glob sets beyond the token budget over all globs and alternatives, with a clear message", () => {
    // 32 globs × 32 brace alternatives each, every one within the per-glob bounds: blocked collection for seconds
    const glob = (k: number) => `${"**/*{a,b}*".repeat(5)}/**/*${k}*z*`.slice(0, 256);
    for (const count of [1, 16, 32]) {
      const compiled = compileOutputGlobs(Array.from({ length: count }, (_, k) => glob(k)));
      expect(compiled).toEqual({ ok: false, message: expect.stringContaining("pattern tokens") });
    }
    // ordinary sets stay well inside
    expect(compileOutputGlobs(Array.from({ length: 10 }, (_, k) => `out/r${k}/**/*.{md,csv}`)).ok).toBe(true);
    expect(compileOutputGlobs(Array.from({ length: 32 }, (_, k) => `r${k}/*.md`)).ok).toBe(true);
  });

  it("still matches what it should", () => {
    expect(matcher("*a*a*a*a*a*a*a*a*a*az")("a".repeat(40) + "z")).toBe(true);
    expect(matcher("**/*.{md,csv}")("x/y/report.csv")).toBe(true);
    expect(matcher("*.md")("x/a.md")).toBe(false);
  });
});

describe("output globs written the way other agent runtimes write them", () => {
  it.each([
    ["$OUTPUT_DIR/*.txt", "a.txt"],
    ["${OUTPUT_DIR}/*.txt", "a.txt"],
    ["$OUT_DIR/*.txt", "a.txt"],
    ["${OUT_DIR}/**/*.csv", "x/y.csv"],
    ["out/*.txt", "a.txt"],
  ])("%s matches %s in out/", (glob, name) => {
    expect(matcher(glob)(name)).toBe(true);
  });
});
