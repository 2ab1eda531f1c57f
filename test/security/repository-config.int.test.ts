import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bubblewrapWorks, EXECUTORS, harnessesFor } from "./attack-harness.js";
import { committedRepository, mark as markOf, repositoryAttacks } from "./repository-attacks.js";

// A repository's configuration is input the model controls: a folder shaped like a bare repository (HEAD, config,
// objects/, refs/; no dot-name) staged into the workspace must not make a narrow git grant run a program.

const canSandbox = bubblewrapWorks();

/** A bare-repository-shaped folder whose config names `command` under every key that runs a program. */
function bareShape(config: string): Array<{ path: string; content: string }> {
  return [
    { path: "repo/HEAD", content: "ref: refs/heads/main\n" },
    { path: "repo/config", content: config },
    { path: "repo/objects/info/packs", content: "" },
    { path: "repo/refs/heads/keep", content: "" },
    { path: "repo/a.txt", content: "a\n" },
    { path: "repo/b.txt", content: "b\n" },
  ];
}

const mark = (name: string) => `touch "$WORKSPACE/PWNED-${name}"`;

const hostileConfig = [
  "[core]",
  "\tbare = true",
  `\tpager = "${mark("core-pager")}; cat"`,
  `\teditor = "${mark("core-editor")}"`,
  `\tfsmonitor = "${mark("fsmonitor")}"`,
  `\tsshCommand = "${mark("ssh")}"`,
  `\taskPass = "${mark("askpass")}"`,
  "[pager]",
  `\tstatus = "${mark("pager-status")}; cat"`,
  `\tdiff = "${mark("pager-diff")}; cat"`,
  `\tlog = "${mark("pager-log")}; cat"`,
  "[diff]",
  `\texternal = "${mark("diff-external")}"`,
  "[sequence]",
  `\teditor = "${mark("sequence-editor")}"`,
  "[gpg]",
  `\tprogram = "${mark("gpg")}"`,
  "[credential]",
  `\thelper = "!${mark("credential")}"`,
  "",
].join("\n");

const attacks: Array<[string, Record<string, unknown>]> = [
  ["git status on a terminal (pager.status)", { command: "git status", pty: true }],
  ["git status without a terminal", { command: "git status" }],
  ["git diff between two files (diff.external)", { command: "git diff --no-index a.txt b.txt" }],
  ["git diff on a terminal (pager.diff)", { command: "git diff --no-index a.txt b.txt", pty: true }],
  ["git log on a terminal (pager.log)", { command: "git log", pty: true }],
  ["git status naming the repository (pager.status)", { command: "git --git-dir=. status", pty: true }],
  ["git diff naming the repository (diff.external)", { command: "git --git-dir=. diff --no-index a.txt b.txt" }],
];

/** A filter driver (and diff, include, upload-pack entries) that marks the workspace when any git command reads it. */
const driver = (name: string) =>
  `[filter "x"]\n\tclean = ${mark(name)}; cat\n\tsmudge = ${mark(name)}; cat\n\trequired = true\n`;

/** Lines that write git's configuration, or hand git a program: each needs approval (refused without rules). */
const configWrites: Array<[string, string]> = [
  ["printf appending a filter to .git/config", `printf '${driver("printf")}' >> .git/config`],
  ["printf writing .gitattributes", "printf '* filter=x\\n' > .gitattributes"],
  ["a subfolder's .gitattributes", "printf '* filter=x\\n' > sub/.gitattributes"],
  ["cd .git, then a relative write", `cd .git && printf '${driver("cd")}' >> config`],
  ["tee -a .git/config", `printf '${driver("tee")}' | tee -a .git/config`],
  ["cp over .git/config", "cp staged.cfg .git/config"],
  ["cp of a file named .gitattributes into the repository", "cp sub/x/.gitattributes ."],
  ["mkdir of a hooks folder", "mkdir -p .git/hooks"],
  ["a .git segment in another case", `printf '${driver("case")}' >> .GIT/config`],
  ["git config setting a filter", `git config filter.x.clean '${mark("git-config")}'`],
  ["git config setting a textconv", `git config diff.x.textconv '${mark("textconv")}'`],
  ["git config adding an include", "git config include.path ../evil.cfg"],
  ["git config setting uploadpack", `git config remote.origin.uploadpack '${mark("uploadpack")}'`],
  ["git fetch --upload-pack", `git fetch --upload-pack='${mark("fetch")}' .`],
  ["git ls-remote --upload-pack", `git ls-remote --upload-pack='${mark("ls-remote")}' .`],
  ["git push --receive-pack", `git push --receive-pack='${mark("push")}' . HEAD`],
  ["git clone -u", `git clone -u '${mark("clone")}' . copy`],
  ["git archive --exec", `git archive --exec='${mark("archive")}' --remote=. HEAD`],
  ["a write target known only at run time", `f=.git/config; printf '${driver("variable")}' >> "$f"`],
];

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `repository configuration is untrusted (${executor})`,
    () => {
      const harness = harnessesFor(executor, afterAll);

      it.each(attacks)(
        "%s runs no program the repository names",
        async (_name, input) => {
          const attack = harness();
          const staged = await attack.call("shell", { command: "true", files: bareShape(hostileConfig) });
          expect(staged).toMatchObject({ status: "ok" });
          const result = await attack.call("shell", { ...input, cwd: "repo" });
          // the shell refuses `--git-dir` as opaque (it cannot be judged before running); either way nothing runs
          expect([undefined, "opaque-command"]).toContain(result.reason);
          const marks = ["", "repo"].flatMap((folder) =>
            [
              "core-pager",
              "core-editor",
              "fsmonitor",
              "ssh",
              "askpass",
              "pager-status",
              "pager-diff",
              "pager-log",
              "diff-external",
              "sequence-editor",
              "gpg",
              "credential",
            ].filter((name) => existsSync(path.join(attack.workspace, folder, `PWNED-${name}`))),
          );
          expect(marks).toEqual([]);
        },
        60_000,
      );

      it.each(configWrites)(
        "%s needs approval (refused without approval rules); git status then runs no driver",
        async (_name, command) => {
          const attack = harness();
          await attack.call("shell", { command: "true" });
          const repo = path.join(attack.workspace, "repo");
          execFileSync("git", ["init", "-q", repo]);
          mkdirSync(path.join(repo, "sub", "x"), { recursive: true });
          writeFileSync(path.join(repo, "sub", "x", ".gitattributes"), "* filter=x\n");
          writeFileSync(path.join(repo, "staged.cfg"), driver("cp"));
          writeFileSync(path.join(repo, "a.txt"), "a\n");
          const result = await attack.call("shell", { command, cwd: "repo" });
          expect(result).toMatchObject({ status: "refused", reason: "opaque-command" });
          await attack.call("shell", { command: "git status --short && git add -A", cwd: "repo" });
          const marks = readdirSync(attack.workspace).filter((name) => name.startsWith("PWNED"));
          expect(marks).toEqual([]);
        },
        60_000,
      );

      it("an ordinary repository in the workspace still works", async () => {
        const attack = harness();
        await attack.call("shell", { command: "true" });
        execFileSync("git", ["init", "-q", path.join(attack.workspace, "legit")]);
        const result = await attack.call("shell", { command: "git status --short", cwd: "legit", pty: true });
        expect(result).toMatchObject({ status: "ok", exit_code: 0 });
      }, 60_000);

      it("a repository in a folder above the workspace is not discovered", async () => {
        const attack = harness();
        await attack.call("shell", { command: "true" });
        // a bare-repository shape in the folder holding the thread workspaces (as another thread could leave)
        const above = path.dirname(attack.workspace);
        for (const folder of ["objects", "refs"]) mkdirSync(path.join(above, folder), { recursive: true });
        writeFileSync(path.join(above, "HEAD"), "ref: refs/heads/main\n");
        writeFileSync(
          path.join(above, "config"),
          `[core]\n\tbare = false\n\tworktree = ${attack.workspace}\n[pager]\n\tstatus = "${mark("above")}; cat"\n`,
        );
        const result = await attack.call("shell", { command: "git status", pty: true });
        expect(result.reason).toBeUndefined();
        expect(existsSync(path.join(attack.workspace, "PWNED-above"))).toBe(false);
      }, 60_000);
    },
  );
}

const marksIn = (workspace: string) => readdirSync(workspace).filter((name) => name.startsWith("PWNED"));

describe.skipIf(!canSandbox && process.env.CI !== "true")(
  "a repository's configuration, written where the planner cannot see it (bubblewrap)",
  () => {
    const harness = harnessesFor("bubblewrap", afterAll);

    it.each(repositoryAttacks.map((attack) => [attack.name, attack] as const))(
      "%s runs no program the repository names",
      async (_name, attack) => {
        const subject = harness({ allow: [`${attack.grant}:*`, "true"] });
        await subject.call("shell", { command: "true" });
        const repo = path.join(subject.workspace, "repo");
        committedRepository(repo);
        attack.prepare(repo);
        const result = await subject.call("shell", { command: attack.command, cwd: "repo", pty: attack.pty });
        // git still works on the sanitised view (exit 0), unless the planner refuses the line outright
        expect(result, JSON.stringify(result)).toMatchObject(
          attack.refused ? { status: "refused" } : { status: "ok", exit_code: 0 },
        );
        expect(marksIn(subject.workspace)).toEqual([]);
      },
      60_000,
    );

    it("a repository the skill ships: its filter does not run under git status", async () => {
      const subject = harness({ allow: ["git:*", "true"] });
      await subject.call("shell", { command: "true" });
      const shipped = path.join(subject.skillDir, "shipped");
      committedRepository(shipped);
      writeFileSync(path.join(shipped, ".git", "config"), `[filter "x"]\n\tclean = "${markOf("skill")}; cat"\n`, {
        flag: "a",
      });
      writeFileSync(
        path.join(subject.skillDir, "scripts", "status.sh"),
        '#!/bin/sh\ngit -C "$SKILL_DIR/shipped" status --short\n',
        {
          mode: 0o755,
        },
      );
      const result = await subject.call("run_skill_script", { skill: "attacker", command: "scripts/status.sh" });
      expect(result.stdout).toContain("a.txt");
      expect(result.status, JSON.stringify(result)).toBe("ok");
      expect(marksIn(subject.workspace)).toEqual([]);
    }, 60_000);

    it("a repository created during the command: the fixed-name keys stay overridden by the environment", async () => {
      const subject = harness();
      await subject.call("shell", { command: "true" });
      // a skill's script: what it writes is not seen by the planner
      const script = [
        "#!/bin/sh",
        'cd "$WORKSPACE" && git init -q new && cd new && echo a > a.txt',
        `printf '[core]\\n\\tfsmonitor = "${markOf("new-fsmonitor")}"\\n\\thooksPath = h\\n' >> .git/config`,
        `mkdir h && printf '#!/bin/sh\\n${markOf("new-hook")}\\n' > h/pre-commit && chmod +x h/pre-commit`,
        `cp h/pre-commit .git/hooks/pre-commit`,
        "git add a.txt && git -c user.name=t -c user.email=t@t commit -q -m one && git status --short",
      ].join("\n");
      writeFileSync(path.join(subject.skillDir, "scripts", "new-repo.sh"), `${script}\n`, { mode: 0o755 });
      const result = await subject.call("run_skill_script", { skill: "attacker", command: "scripts/new-repo.sh" });
      expect(result).toMatchObject({ status: "ok", exit_code: 0 });
      const written = readFileSync(path.join(subject.workspace, "new", ".git", "config"), "utf8");
      expect(written).toContain(`fsmonitor = "${markOf("new-fsmonitor")}"`);
      expect(written).toContain("hooksPath = h");
      expect(marksIn(subject.workspace)).toEqual([]);
    }, 60_000);

    it("past the scan's bounds the command does not run (fail closed)", async () => {
      const subject = harness({ bubblewrap: { repository: { maxFolders: 20 } } });
      await subject.call("shell", { command: "true" });
      for (let index = 0; index < 30; index += 1) mkdirSync(path.join(subject.workspace, `d${index}`));
      await expect(subject.call("shell", { command: markOf("ran") })).rejects.toMatchObject({
        name: "RepositoryScanError",
        code: "repository-scan",
      });
      expect(marksIn(subject.workspace)).toEqual([]);
    }, 60_000);

    it("with repository.trustConfig the repository's filter runs (the user's explicit choice)", async () => {
      const subject = harness({ allow: ["git status:*", "true"], bubblewrap: { repository: { trustConfig: true } } });
      await subject.call("shell", { command: "true" });
      const repo = path.join(subject.workspace, "repo");
      committedRepository(repo);
      writeFileSync(path.join(repo, ".git", "config"), `[filter "x"]\n\tclean = "${markOf("trusted")}; cat"\n`, {
        flag: "a",
      });
      const result = await subject.call("shell", { command: "git status --short", cwd: "repo" });
      expect(result.status).toBe("ok");
      expect(marksIn(subject.workspace)).toEqual(["PWNED-trusted"]);
    }, 60_000);

    it("ordinary git use works: status, diff, log, commit, push to a local bare remote", async () => {
      const subject = harness({ allow: ["git:*", "true"] });
      await subject.call("shell", { command: "true" });
      const repo = path.join(subject.workspace, "repo");
      committedRepository(repo);
      execFileSync("git", ["init", "-q", "--bare", path.join(subject.workspace, "remote.git")]);
      const run = (command: string) => subject.call("shell", { command, cwd: "repo" });
      expect(await run("git status --short")).toMatchObject({
        status: "ok",
        exit_code: 0,
        stdout: expect.stringContaining("a.txt"),
      });
      expect(await run("git diff")).toMatchObject({ exit_code: 0, stdout: expect.stringContaining("+two") });
      expect(await run("git commit -q -a -m second")).toMatchObject({ exit_code: 0 });
      expect(await run("git log --oneline")).toMatchObject({ exit_code: 0, stdout: expect.stringContaining("second") });
      // the repository's configuration is read-only in the sandbox: the remote is added outside it
      execFileSync("git", ["remote", "add", "origin", "../remote.git"], { cwd: repo });
      expect(await run("git push -q origin HEAD:refs/heads/main")).toMatchObject({ exit_code: 0 });
      const pushed = execFileSync("git", [
        "--git-dir",
        path.join(subject.workspace, "remote.git"),
        "log",
        "--oneline",
        "main",
      ]);
      expect(String(pushed)).toContain("second");
    }, 60_000);
  },
);
