import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { attackHarness, bubblewrapWorks, harnessesFor, EXECUTORS, exists } from "./attack-harness.js";

// Grants that would be code execution in disguise: a narrow grant (git status, python3 -m json.tool) plus a file the
// model stages or an environment variable it sets must never run other code. Environments are allow-lists.

const canSandbox = bubblewrapWorks();

const stagingRefused: Array<[string, string]> = [
  ["a repository config with core.fsmonitor", ".git/config"],
  ["a user git config in HOME", ".gitconfig"],
  ["a git config under .config", ".config/git/config"],
  ["a shell rc file", ".bashrc"],
  ["a profile", ".profile"],
  ["an npm config", ".npmrc"],
  ["a Python user site file", ".local/lib/python3.11/site-packages/usercustomize.py"],
  ["usercustomize.py at the top", "usercustomize.py"],
  ["sitecustomize.py in a folder", "in/sitecustomize.py"],
  ["a .pth path file", "in/evil.pth"],
  ["a dot-folder deep inside", "in/a/.hidden/x"],
  ["an absolute path", "/tmp/evil"],
  ["a parent-folder escape", "in/../../evil"],
  ["a NUL byte", "in/a\u0000b"],
  ["an empty path", ""],
];

const envRefused: Array<[string, Record<string, string>]> = [
  ["GIT_CONFIG_PARAMETERS", { GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='touch /tmp/pwned'" }],
  [
    "GIT_CONFIG_COUNT/KEY/VALUE",
    { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "touch x" },
  ],
  ["GIT_DIR", { GIT_DIR: "/etc" }],
  ["PERLLIB", { PERLLIB: "/tmp" }],
  ["PERL5OPT", { PERL5OPT: "-Mevil" }],
  ["PYTHONUSERBASE", { PYTHONUSERBASE: "/tmp" }],
  ["PYTHONPATH", { PYTHONPATH: "/tmp" }],
  ["PYTHONSTARTUP", { PYTHONSTARTUP: "/tmp/x.py" }],
  ["SHELL (used by the pty wrapper)", { SHELL: "/tmp/evil" }],
  ["HOME", { HOME: "/root" }],
  ["LD_PRELOAD", { LD_PRELOAD: "/tmp/x.so" }],
  ["LD_LIBRARY_PATH", { LD_LIBRARY_PATH: "/tmp" }],
  ["NODE_OPTIONS", { NODE_OPTIONS: "--require /tmp/x.js" }],
  ["RUBYOPT", { RUBYOPT: "-r/tmp/x" }],
  ["BASH_ENV", { BASH_ENV: "/tmp/x" }],
  ["ENV", { ENV: "/tmp/x" }],
  ["PROMPT_COMMAND", { PROMPT_COMMAND: "id" }],
  ["LESSOPEN", { LESSOPEN: "|id %s" }],
  ["EDITOR", { EDITOR: "/tmp/evil" }],
  ["GIT_SSH_COMMAND", { GIT_SSH_COMMAND: "id" }],
  ["SKILLGRAPH_RUN_ID", { SKILLGRAPH_RUN_ID: "x" }],
  ["an invalid name", { "A-B": "x" }],
];

const assignmentsRefused: Array<[string, string]> = [
  ["env LD_PRELOAD=", "env LD_PRELOAD=/tmp/x.so true"],
  ["env GIT_CONFIG_PARAMETERS=", "env GIT_CONFIG_PARAMETERS='core.fsmonitor=id' git status"],
  ["env -i PATH=", "env -i PATH=/tmp true"],
  ["env -S split string", "env -S 'sh -c id'"],
];

// The staging names and the environment allow-list are looked up on the host, before any executor is involved: each
// table is checked once (on the local executor, where nothing runs either), and every executor keeps one case of each
// (below) to show the same refusal reaches it.
describe("refusals decided before any executor runs (each name checked once)", () => {
  const harness = harnessesFor("local", afterAll);

  it.each(stagingRefused)("refuses staging %s (%j)", async (_name, file) => {
    const attack = harness();
    const result = await attack.call("shell", {
      command: "true",
      files: [{ path: file, content: "[core]\n\tfsmonitor = touch PWNED\n" }],
    });
    expect(result).toMatchObject({ status: "refused", reason: "staging-refused" });
    expect(exists(path.join(attack.workspace, "PWNED"))).toBe(false);
  });

  it.each(envRefused)("refuses setting %s from a tool call", async (_name, env) => {
    const attack = harness();
    const result = await attack.call("shell", { command: "true", env });
    expect(result).toMatchObject({ status: "refused", reason: "env-not-allowed" });
  });

  it.each(assignmentsRefused)("refuses %s inside the command line", async (_name, command) => {
    const attack = harness();
    const result = await attack.call("shell", { command });
    expect(result.status).toBe("refused");
    expect(["env-not-allowed", "opaque-command"]).toContain(result.reason);
  });
});

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `grants and environment (${executor})`,
    () => {
      const harness = harnessesFor(executor, afterAll);
      const strict = () => harness({ allow: ["true", "ls"] });

      it("refuses a staged config file, a disallowed environment name and an env assignment, running nothing", async () => {
        const attack = harness();
        const staged = await attack.call("shell", {
          command: "touch RAN",
          files: [{ path: stagingRefused[0]![1], content: "[core]\n\tfsmonitor = touch PWNED\n" }],
        });
        expect(staged).toMatchObject({ status: "refused", reason: "staging-refused" });
        const env = await attack.call("shell", { command: "touch RAN", env: envRefused[0]![1] });
        expect(env).toMatchObject({ status: "refused", reason: "env-not-allowed" });
        const assignment = await attack.call("shell", { command: assignmentsRefused[0]![1] });
        expect(assignment.status).toBe("refused");
        expect(exists(path.join(attack.workspace, "RAN"))).toBe(false);
        expect(exists(path.join(attack.workspace, "PWNED"))).toBe(false);
      });

      it("a repository's core.fsmonitor does not run under a git status grant", async () => {
        const attack = strict();
        await attack.call("shell", { command: "true" });
        // a repository the model could not configure through staging, configured here as if by some other route
        execFileSync("git", ["init", "-q", attack.workspace]);
        execFileSync("git", ["-C", attack.workspace, "config", "core.fsmonitor", "touch FSMONITOR_RAN; false"]);
        const result = await attack.call("shell", { command: "git status --short" });
        expect(result.status).toBe("ok");
        expect(exists(path.join(attack.workspace, "FSMONITOR_RAN"))).toBe(false);
      });

      it("git reads no global config from HOME and no ext:: transport runs", async () => {
        const attack = harness();
        const result = await attack.call("shell", { command: "git clone ext::touch%20EXT_RAN x" });
        expect(result.status).not.toBe("ok");
        expect(exists(path.join(attack.workspace, "EXT_RAN"))).toBe(false);
        const home = await attack.call("run_skill_script", { skill: "attacker", command: "scripts/print-env.sh" });
        const homeLine = String(home.stdout)
          .split("\n")
          .find((line) => line.startsWith("HOME="));
        expect(homeLine).toBeDefined();
        expect(homeLine).not.toContain(attack.workspace);
      });

      it("a module planted in the working folder does not shadow the one a python3 -m grant names", async () => {
        const attack = harness({ allow: ["true"] });
        const staged = await attack.call("shell", {
          command: "true",
          files: [
            { path: "json/__init__.py", content: "open('SHADOW_RAN','w')\n" },
            { path: "json/tool.py", content: "open('SHADOW_RAN','w')\n" },
            { path: "in/data.json", content: '{"a": 1}' },
          ],
        });
        expect(staged.status).toBe("ok");
        const result = await attack.call("shell", { command: "python3 -m json.tool in/data.json" });
        expect(result).toMatchObject({ status: "ok" });
        expect(result.stdout).toContain('"a": 1');
        expect(exists(path.join(attack.workspace, "SHADOW_RAN"))).toBe(false);
      });

      it("the environment a command sees is exactly the runtime's allow-list plus allowed names", async () => {
        process.env.SKILLGRAPH_TEST_SECRET = "leaked-secret-value";
        const attack = harness({ environment: { allow: ["TZ"], set: { APP_SETTING: "1" } } });
        const result = await attack.call("run_skill_script", {
          skill: "attacker",
          command: "scripts/print-env.sh",
          env: { TZ: "UTC" },
        });
        const names = String(result.stdout)
          .split("\n")
          .filter((line) => line.includes("="))
          .map((line) => line.slice(0, line.indexOf("=")))
          .filter((name) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(name));
        expect(String(result.stdout)).not.toContain("leaked-secret-value");
        for (const name of names)
          expect(name).toMatch(
            /^(PATH|HOME|TMPDIR|SHELL|LANG|LC_ALL|WORKSPACE|OUT_DIR|WORKSPACE_DIR|WORK_DIR|OUTPUT_DIR|SKILL_DIR|SKILLS_DIR|SKILL_NAME|RUN_DIR|SKILLGRAPH_RUN_ID|GIT_.*|PYTHON.*|TZ|APP_SETTING)$/,
          );
        expect(names).toEqual(expect.arrayContaining(["TZ", "APP_SETTING", "SKILL_NAME"]));
      });

      it("a command cannot read the agent's environment through /proc", async () => {
        process.env.SKILLGRAPH_TEST_SECRET = "agent-api-key-value";
        const attack = harness();
        const result = await attack.call("run_skill_script", {
          skill: "attacker",
          command: "scripts/read-parent-env.sh",
        });
        expect(JSON.stringify(result)).not.toContain("agent-api-key-value");
      });

      it.runIf(executor === "bubblewrap")("the skill folder is read-only inside the sandbox", async () => {
        const attack = harness();
        const result = await attack.call("run_skill_script", {
          skill: "attacker",
          command: "scripts/write-skill-dir.sh",
        });
        expect(result.stdout).not.toContain("wrote");
        expect(exists(path.join(attack.skillDir, "pwned.txt"))).toBe(false);
      });
    },
  );
}

describe("options that would be unsafe are refused at construction", () => {
  it.each([
    ["an environment name the runtime sets", { environment: { allow: ["PATH"] } }],
    ["a reserved fixed value", { environment: { set: { HOME: "/root" } } }],
    ["a marker name", { environment: { allow: ["SKILLGRAPH_RUN_ID"] } }],
  ])("refuses %s", (_name, options) => {
    expect(() => attackHarness("local", options as never)).toThrow(/environment/);
  });
});
