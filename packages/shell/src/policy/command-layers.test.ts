import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../command/bash-parser.js";
import { describeArgv } from "../command/shell-quote.js";
import { commandLayers } from "./command-layers.js";
import type { CommandPolicy } from "./command-policy.js";
import { parseCommandRule } from "./command-rules.js";
import { planCommand, preflightCommand } from "./plan-command.js";
import { compileApprovalRules, needsApproval } from "./approval-rules.js";
import { bashCommand } from "../executor/bash-command.js";

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
    syntax: "full",
    opaqueNeedsApproval: false,
    envAllow: new Set(["TZ"]),
    ...overrides,
  };
}

const check = (argv: string[], rules: CommandPolicy) =>
  preflightCommand({ command: describeArgv(argv), mode: "shell", loadedSkills: [], workspaceDir: "/tmp/ws" }, rules);

describe("command policy (property)", () => {
  beforeAll(() => loadBashParser());
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
        // xargs appends words known only at run time: after `git push` one may be `--receive-pack=...` (opaque)
        expect(unwrapped.ok || (argv.includes("xargs") && isPush)).toBe(true);
        const last = unwrapped.layers.at(-1) ?? [];
        expect(last[0]).toBe(program);
        if (isPush && unwrapped.ok) expect(last[1]).toBe("push");
      }),
      { numRuns: 500 },
    );
  });
});

// Property over full bash syntax: a denied or approval-gated program hidden anywhere in a generated line (pipelines,
// lists, groups, subshells, substitutions, functions, loops, here-documents, redirections, wrappers, quoting) never
// runs unasked. Lines the checker passes without asking are really run by bash; canary programs record any run.

interface Piece {
  text: string;
  denied: boolean;
  gated: boolean;
}

const harmless: fc.Arbitrary<Piece> = fc
  .constantFrom("echo hi", "true", ": x", "printf '%s' a")
  .map((text) => ({ text, denied: false, gated: false }));

/** A canary program, spelled and wrapped the ways an attacker would. */
const hidden: fc.Arbitrary<Piece> = fc
  .record({
    program: fc.constantFrom("denied-prog", "alias-prog", "gated-prog"),
    spelling: fc.constantFrom(
      (p: string) => p,
      (p: string) => `'${p}'`,
      (p: string) => `"${p.slice(0, 3)}"${p.slice(3)}`,
      (p: string) => `${p.slice(0, 1)}\\${p.slice(1)}`,
      (p: string) => `env ${p}`,
      (p: string) => `nice -n 5 ${p}`,
      (p: string) => `timeout 5 ${p}`,
      (p: string) => `command ${p}`,
      (p: string) => `echo x | xargs ${p}`,
      (p: string) => `find . -maxdepth 0 -exec ${p} {} \\;`,
      (p: string) => `$'${[...p].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join("")}'`,
      (p: string) => `v=${p}; $v`,
      (p: string) => `\${unset_var:-${p}}`,
      (p: string) => `TZ=UTC ${p}`,
    ),
  })
  .map(({ program, spelling }) => ({
    text: `${spelling(program)} arg`,
    denied: program !== "gated-prog",
    gated: program === "gated-prog",
  }));

const around: Array<(a: Piece, b: Piece) => string> = [
  (a, b) => `${a.text} | ${b.text}`,
  (a, b) => `${a.text} && ${b.text}`,
  (a, b) => `false || ${a.text}; ${b.text}`,
  (a) => `{ ${a.text}; }`,
  (a) => `( ${a.text} )`,
  (a) => `echo "$(${a.text})"`,
  (a) => `cat <(${a.text})`,
  (a, b) => `f() { ${a.text}; }; ${b.text}; f`,
  (a, b) => `if true; then ${a.text}; else ${b.text}; fi`,
  (a) => `for i in 1 2; do ${a.text}; done`,
  (a) => `while false; do ${a.text}; done`,
  (a) => `case x in x) ${a.text};; esac`,
  (a) => `cat <<EOF\n$(${a.text})\nEOF`,
  (a) => `echo $(( $(${a.text}) + 1 ))`,
  (a) => `${a.text} > out.txt 2>/dev/null`,
  (a) => `! ${a.text}`,
];

const line: fc.Arbitrary<Piece> = fc.letrec<{ piece: Piece }>((tie) => ({
  piece: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    harmless,
    hidden,
    fc
      .record({ shape: fc.integer({ min: 0, max: around.length - 1 }), a: tie("piece"), b: tie("piece") })
      .map(({ shape, a, b }) => ({
        text: (around[shape] as (a: Piece, b: Piece) => string)(a, b),
        denied: a.denied || (b.denied && around[shape]!.length > 1),
        gated: a.gated || (b.gated && around[shape]!.length > 1),
      })),
  ),
})).piece;

describe("command policy over full syntax (property)", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "shell-syntax-property-"));
  const bin = path.join(root, "bin");
  const workspaceDir = path.join(root, "ws");
  const canaries = path.join(root, "canaries");
  mkdirSync(bin);
  mkdirSync(workspaceDir);
  mkdirSync(canaries);
  for (const name of ["denied-prog", "gated-prog"]) {
    writeFileSync(path.join(bin, name), `#!/bin/sh\ntouch '${canaries}/${name}'\n`);
    chmodSync(path.join(bin, name), 0o755);
  }
  symlinkSync(path.join(bin, "denied-prog"), path.join(bin, "alias-prog"));
  const fixedPath = `${bin}:/usr/local/bin:/usr/bin:/bin`;
  const rules = compileApprovalRules(["gated-prog"]);
  const full = (opaqueNeedsApproval: boolean) =>
    policy({
      deny: [parseCommandRule("denied-prog", "deny", { prefix: true })!],
      fixedPath,
      confinePaths: true,
      readablePaths: ["/dev/null"],
      opaqueNeedsApproval,
    });

  beforeAll(() => loadBashParser());

  it.each([true, false])(
    "a hidden denied program never runs and a gated one always asks first (approval rules set: %s)",
    (withApproval) => {
      let ran = 0;
      fc.assert(
        fc.property(line, (piece) => {
          const checked = planCommand(
            { command: piece.text, mode: "shell", loadedSkills: [], workspaceDir },
            full(withApproval),
          );
          if (!checked.ok) return;
          const { plan } = checked;
          // a denied program is refused, unless it hides behind a piece that cannot be judged: then a human is asked
          if (piece.denied && plan.opaque.length === 0)
            throw new Error(`a line hiding a denied program passed: ${piece.text}`);
          const asks =
            plan.opaque.length > 0 ||
            needsApproval(rules, {
              tool: "shell",
              argv: plan.programArgv,
              command: plan.display,
              layers: plan.layers,
              commands: [],
              cwd: ".",
              opaque: [],
              sandboxed: false,
              key: "",
            });
          if (!withApproval) expect(plan.opaque).toEqual([]);
          if (piece.gated) expect(asks).toBe(true);
          if (asks) return;
          ran += 1;
          spawnSync(bashCommand(plan.command)[0]!, bashCommand(plan.command).slice(1), {
            cwd: workspaceDir,
            env: { PATH: fixedPath },
            timeout: 10_000,
          });
          expect(readdirSync(canaries)).toEqual([]);
        }),
        { numRuns: 250 },
      );
      expect(ran).toBeGreaterThan(0);
    },
    // each line that passes runs a real bash: room for a loaded machine (under a second each when idle)
    120_000,
  );
});
