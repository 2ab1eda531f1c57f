// Repositories whose configuration the planner never saw being written (a staged file, an interpreter, a skill's shipped
// repository): each attack names a program under a key git reads, and a line that only names a git subcommand.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A command that leaves `PWNED-<name>` in the workspace root (as the sandbox sees it: $WORKSPACE). */
export const mark = (name: string) => `touch "$WORKSPACE/PWNED-${name}"`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    stdio: "pipe",
  });

/** A repository at `dir` with one commit of a.txt, then a.txt modified (so status, diff and log -p read it). */
export function committedRepository(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  git(dir, "config", "user.name", "t");
  git(dir, "config", "user.email", "t@t");
  writeFileSync(path.join(dir, "a.txt"), "one\n");
  writeFileSync(path.join(dir, ".gitattributes"), "*.txt filter=x diff=x merge=x\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "first");
  writeFileSync(path.join(dir, "a.txt"), "two\n");
}

/** Appends `text` to the repository's own config, as a write the planner cannot see would. */
export function appendConfig(repo: string, text: string): void {
  writeFileSync(path.join(repo, ".git", "config"), text, { flag: "a" });
}

/** One attack: what to add to the repository, the grant, the line, and the mark it leaves when a program ran. */
export interface RepositoryAttack {
  name: string;
  grant: string;
  command: string;
  pty?: boolean;
  /** The planner refuses the line already (nothing runs either way). */
  refused?: boolean;
  /** Prepares the repository at `repo` (a committed repository with a.txt modified). */
  prepare(repo: string): void;
}

/** Every attack a repository's configuration can make on a narrow git grant. */
export const repositoryAttacks: RepositoryAttack[] = [
  {
    name: "filter.<driver>.clean under git status",
    grant: "git status",
    command: "git status --short",
    prepare: (repo) => appendConfig(repo, `[filter "x"]\n\tclean = "${mark("filter")}; cat"\n`),
  },
  {
    name: "filter.<driver>.process under git status",
    grant: "git status",
    command: "git status --short",
    prepare: (repo) => appendConfig(repo, `[filter "x"]\n\tprocess = "${mark("filter-process")}; cat"\n`),
  },
  {
    name: "diff.<driver>.command under git diff",
    grant: "git diff",
    command: "git diff",
    prepare: (repo) => appendConfig(repo, `[diff "x"]\n\tcommand = "${mark("diff-command")}; true"\n`),
  },
  {
    name: "diff.<driver>.textconv under git log -p",
    grant: "git log",
    command: "git log -p",
    prepare: (repo) => {
      appendConfig(repo, `[diff "x"]\n\ttextconv = "${mark("textconv")}; cat"\n`);
      git(repo, "commit", "-q", "-a", "-m", "second");
    },
  },
  {
    name: "a filter pulled in by [include] path from a staged file",
    grant: "git status",
    command: "git status --short",
    prepare: (repo) => {
      writeFileSync(path.join(repo, "staged.cfg"), `[filter "x"]\n\tclean = "${mark("include")}; cat"\n`);
      appendConfig(repo, "[include]\n\tpath = ../staged.cfg\n");
    },
  },
  {
    name: "a filter pulled in by [includeIf] from a staged file",
    grant: "git status",
    command: "git status --short",
    prepare: (repo) => {
      writeFileSync(path.join(repo, "staged.cfg"), `[filter "x"]\n\tclean = "${mark("include-if")}; cat"\n`);
      appendConfig(repo, '[includeIf "gitdir:/"]\n\tpath = ../staged.cfg\n');
    },
  },
  {
    name: "core.fsmonitor under git status",
    grant: "git status",
    command: "git status --short",
    prepare: (repo) => appendConfig(repo, `[core]\n\tfsmonitor = "${mark("fsmonitor")}"\n`),
  },
  {
    name: "a pre-commit hook in .git/hooks under git commit",
    grant: "git commit",
    command: "git commit -q -a -m second",
    prepare: (repo) => {
      writeFileSync(path.join(repo, ".git", "hooks", "pre-commit"), `#!/bin/sh\n${mark("hook")}\n`, { mode: 0o755 });
    },
  },
  {
    name: "core.hooksPath naming a staged folder under git commit",
    grant: "git commit",
    command: "git commit -q -a -m second",
    prepare: (repo) => {
      mkdirSync(path.join(repo, "myhooks"));
      writeFileSync(path.join(repo, "myhooks", "pre-commit"), `#!/bin/sh\n${mark("hooks-path")}\n`, { mode: 0o755 });
      appendConfig(repo, "[core]\n\thooksPath = myhooks\n");
    },
  },
  {
    name: "a .git/config that is a symlink to a staged file with a filter",
    grant: "git status",
    command: "git status --short",
    prepare: (repo) => {
      const config = path.join(repo, ".git", "config");
      writeFileSync(
        path.join(repo, "evil.cfg"),
        `${readFileSync(config, "utf8")}[filter "x"]\n\tclean = "${mark("symlinked-config")}; cat"\n`,
      );
      renameSync(config, `${config}.orig`);
      symlinkSync("../evil.cfg", config);
    },
  },
  {
    name: "a .git/hooks that is a symlink to a staged folder, under git commit",
    grant: "git commit",
    command: "git commit -q -a -m second",
    prepare: (repo) => {
      mkdirSync(path.join(repo, "myhooks"));
      writeFileSync(path.join(repo, "myhooks", "pre-commit"), `#!/bin/sh\n${mark("symlinked-hooks")}\n`, {
        mode: 0o755,
      });
      renameSync(path.join(repo, ".git", "hooks"), path.join(repo, ".git", "hooks.orig"));
      symlinkSync("../myhooks", path.join(repo, ".git", "hooks"));
    },
  },
  {
    name: "pager.<cmd> on a terminal under git log",
    grant: "git log",
    command: "git log",
    pty: true,
    prepare: (repo) => appendConfig(repo, `[pager]\n\tlog = "${mark("pager")}; cat"\n`),
  },
  {
    name: "remote.<name>.uploadpack under git fetch",
    grant: "git fetch",
    command: "git fetch -q origin",
    prepare: (repo) =>
      appendConfig(repo, `[remote "origin"]\n\turl = .\n\tuploadpack = "${mark("uploadpack")}; git-upload-pack"\n`),
  },
  {
    name: "remote.<name>.receivepack under git push",
    grant: "git push",
    command: "git push -q origin HEAD:refs/heads/other",
    prepare: (repo) =>
      appendConfig(repo, `[remote "origin"]\n\turl = .\n\treceivepack = "${mark("receivepack")}; git-receive-pack"\n`),
  },
  {
    name: "alias.<name> starting with ! under git st",
    grant: "git st",
    command: "git st",
    refused: true,
    prepare: (repo) => appendConfig(repo, `[alias]\n\tst = "!${mark("alias")}"\n`),
  },
];
