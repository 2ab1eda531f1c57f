// A folder the CLI cannot open (permissions): `list` reports it once with its path and cause and exits 1, and
// `validate --all` lists it as an invalid entry (exit 1). Root reads everything through two capabilities
// (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so as root the CLI runs without them (setpriv drops them from the bounding
// set): still root, so it reaches the clone wherever it lies (a 0700 temp folder, say), but mode 000 stops it as it
// stops any user. Without root the CLI runs as the current user, for whom mode 000 is unreadable already.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../test/support/skill-tree.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const setpriv = ["/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv"].find((path) => existsSync(path));
const withoutReadAll = ["--bounding-set", "-dac_override,-dac_read_search", "--"];
const asRoot = process.getuid?.() === 0;
const base = mkdtempSync(join(tmpdir(), "sg-unreadable-"));
chmodSync(base, 0o755);
const tree = writeTree({
  "ok/SKILL.md": skillMd("ok", "A readable skill."),
  "locked/inner/SKILL.md": skillMd("inner", "Behind a folder nobody may list."),
});
chmodSync(tree, 0o755);
chmodSync(join(tree, "locked"), 0o000);
afterAll(() => {
  chmodSync(join(tree, "locked"), 0o755);
  rmSync(base, { recursive: true, force: true });
});

function cli(args: string[]) {
  const node = [
    process.execPath,
    "--conditions=@skillgraph/source",
    "--import",
    "tsx",
    "packages/cli/src/bin.ts",
    ...args,
  ];
  const [command, ...rest] = asRoot && setpriv ? [setpriv, ...withoutReadAll, ...node] : node;
  const result = spawnSync(command!, rest, {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: base, NO_COLOR: "1" },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe.skipIf(asRoot && !setpriv)("folders the CLI cannot open (as root: needs setpriv, from util-linux)", () => {
  it("list: one report with the path and the cause, exit 1, the readable skills still listed", () => {
    const result = cli(["list", "--skills", tree]);
    expect(result.code, result.err).toBe(1);
    expect(result.out).toContain("ok");
    expect(result.err).toContain("warning: 1 folder could not be read:");
    expect(result.err).toContain(`cannot list folder ${join(tree, "locked")}: EACCES`);
    // Said once: one line names the folder.
    expect(result.err.split("\n").filter((line) => line.includes(join(tree, "locked")))).toHaveLength(1);
  });

  it("validate --all: the folder is an invalid entry (source-unreadable), exit 1", () => {
    const result = cli(["validate", "--all", "--json", tree]);
    expect(result.code, result.err).toBe(1);
    const payload = JSON.parse(result.out) as {
      results: Array<{ path: string; valid: boolean; diagnostics: Array<{ code: string }> }>;
    };
    expect(payload.results.map((entry) => [entry.path, entry.valid, entry.diagnostics.map((d) => d.code)])).toEqual([
      [join(tree, "ok"), true, []],
      [join(tree, "locked"), false, ["source-unreadable"]],
    ]);
  });
});
