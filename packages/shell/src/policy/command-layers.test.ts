import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeArgv } from "../command/shell-quote.js";
import { commandLayers } from "./command-layers.js";
import type { CommandPolicy } from "./command-policy.js";
import { parseCommandRule } from "./command-rules.js";
import { preflightCommand } from "./plan-command.js";

// Property: no command line the parser accepts runs a program other than the ones the policy approved. The generator
// builds lines as wrapper chains around a final program, so it knows which program really runs.

const wrapper = fc.oneof(
  fc.constantFrom(
    ["env"],
    ["env", "-i"],
    ["env", "TZ=UTC"],
    ["env", "-u", "HOME"],
    ["nohup"],
    ["setsid"],
    ["setsid", "-f"],
    ["stdbuf", "-oL"],
    ["time"],
    ["ionice", "-c", "3"],
  ),
  fc.integer({ min: 1, max: 19 }).map((level) => ["nice", "-n", String(level)]),
  fc.integer({ min: 1, max: 99 }).map((seconds) => ["timeout", String(seconds)]),
  fc.constantFrom(
    ["timeout", "-s", "KILL", "5"],
    ["timeout", "--kill-after=1", "5"],
    ["xargs"],
    ["xargs", "-0"],
    ["xargs", "-n", "1"],
    ["xargs", "-r", "-P", "2"],
  ),
);
const finalProgram = fc.constantFrom(
  ["kill", "-9", "1"],
  ["rm", "-rf", "x"],
  ["curl", "http://x"],
  ["git", "push"],
  ["git", "-C", "repo", "push"],
  ["git", "--no-pager", "push", "origin"],
  ["echo", "hi"],
);
const findExec = fc.tuple(fc.constantFrom("-exec", "-execdir", "-ok"), fc.constantFrom(";", "+"));

/** argv = wrappers..., then the program, optionally as `find . -exec program {} ;`. */
const commandLine = fc
  .record({
    wrappers: fc.array(wrapper, { maxLength: 4 }),
    program: finalProgram,
    viaFind: fc.option(findExec, { nil: undefined }),
  })
  .map(({ wrappers, program, viaFind }) => {
    const inner = viaFind ? ["find", ".", viaFind[0], ...program, "{}", viaFind[1]] : program;
    return {
      argv: [...wrappers.flat(), ...inner],
      program: program[0] as string,
      isPush: (program as readonly string[]).includes("push"),
      wrapped: wrappers.length > 0 || viaFind !== undefined,
    };
  });

function policy(overrides: Partial<CommandPolicy>): CommandPolicy {
  return {
    deny: [],
    fixedPath: "/usr/local/bin:/usr/bin:/bin",
    confinePaths: false,
    readablePaths: [],
    allowShellSyntax: false,
    envAllow: new Set(["TZ"]),
    ...overrides,
  };
}

const check = (argv: string[], rules: CommandPolicy) =>
  preflightCommand({ command: describeArgv(argv), mode: "shell", loadedSkills: [], workspaceDir: "/tmp/ws" }, rules);

describe("command policy (property)", () => {
  it("a denied program never passes, however it is wrapped", () => {
    const denyPolicy = policy({
      deny: ["kill", "rm", "curl", "git push"].map((text) => parseCommandRule(text, "deny", { prefix: true })!),
    });
    fc.assert(
      fc.property(commandLine, ({ argv, program }) => {
        const result = check(argv, denyPolicy);
        if (program !== "echo") expect(result.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("under an allow list, only lines whose every program is listed pass", () => {
    const allowPolicy = policy({ allow: [parseCommandRule("echo", "allow")!] });
    fc.assert(
      fc.property(commandLine, ({ argv, program, wrapped }) => {
        const result = check(argv, allowPolicy);
        expect(result.ok).toBe(program === "echo" && !wrapped);
      }),
      { numRuns: 500 },
    );
  });

  it("every line the parser accepts unwraps to layers whose last program is the one generated", () => {
    fc.assert(
      fc.property(commandLine, ({ argv, program, isPush }) => {
        const unwrapped = commandLayers(argv);
        expect(unwrapped.ok).toBe(true);
        const last = unwrapped.layers.at(-1) ?? [];
        expect(last[0]).toBe(program);
        if (isPush) expect(last[1]).toBe("push");
      }),
      { numRuns: 500 },
    );
  });
});
