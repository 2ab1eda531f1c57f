import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "@skillgraph/core";
import {
  createShellHook,
  DEFAULT_DENIED_PROGRAMS,
  type ApprovalRule,
  type ShellApprovalRequest,
  type ShellHookOptions,
} from "@skillgraph/shell";
import { toolLoopGraph } from "../../packages/shell/src/__fixtures__/tool-loop-graph.js";
import { preApprovedBySkill } from "../../packages/cli/src/commands/chat/chat-shell.js";

// Full shell syntax, attacked: every command a line can run is checked, so a denied program hidden anywhere (a pipe,
// a list, a group, a substitution, a function, a loop, a here-document, arithmetic, a wrapper, a quoting trick) never
// runs. A canary program on the command PATH records any run of it in a host folder.

const root = mkdtempSync(path.join(os.tmpdir(), "syntax-attacks-"));
const bin = path.join(root, "bin");
const ran = path.join(root, "ran");
mkdirSync(bin);
mkdirSync(ran);
writeFileSync(path.join(bin, "canary"), `#!/bin/sh\ntouch '${ran}/canary-'$$\n`);
chmodSync(path.join(bin, "canary"), 0o755);
const fixedPath = `${bin}:/usr/local/bin:/usr/bin:/bin`;

function skill(name: string, dir: string, allowedTools: string[] = []): SkillMetadata {
  return {
    name,
    description: name,
    allowedTools,
    extra: {},
    dir,
    file: path.join(dir, "SKILL.md"),
    origin: { sourceId: "code:attack", layer: "explicit", kind: "code" },
    hash: "0",
    diagnostics: [],
  };
}

function skillFolder(name: string): string {
  const dir = path.join(root, "skills", name);
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  writeFileSync(path.join(dir, "scripts", "run.sh"), "#!/bin/sh\necho run\n");
  chmodSync(path.join(dir, "scripts", "run.sh"), 0o755);
  return dir;
}
const skills = [
  skill("git-reader", skillFolder("git-reader"), ["Bash(git status:*)"]),
  skill("one", skillFolder("one"), ["run_skill_script"]),
  skill("two", skillFolder("two"), ["run_skill_script"]),
];
const catalog = { get: (name: string) => skills.find((entry) => entry.name === name) };

function hook(options: Partial<ShellHookOptions> = {}) {
  return createShellHook({
    skills: catalog,
    executor: "local",
    fixedPath,
    deny: [...DEFAULT_DENIED_PROGRAMS, "canary"],
    workspaceRoot: mkdtempSync(path.join(root, "ws-")),
    loadedSkills: () => skills.map((entry) => entry.name),
    alwaysVisible: true,
    sessions: false,
    ...options,
  });
}

/** Runs one tool call through a real graph; returns the interrupt it raised (undefined when it ran or was refused). */
async function interruptOf(
  options: Partial<ShellHookOptions>,
  call: { name: "shell" | "run_skill_script"; args: Record<string, unknown> },
): Promise<ShellApprovalRequest | undefined> {
  const model = fakeModel()
    .respondWithTools([{ ...call, id: "call-1" }])
    .respond(new AIMessage("done"));
  const graph = toolLoopGraph(hook(options).tools, model);
  const config = { configurable: { thread_id: "t" } };
  await graph.invoke({ messages: [new HumanMessage("go")] }, config);
  const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
  return pending[0]?.value as ShellApprovalRequest | undefined;
}

const interrupts = async (requireApproval: ApprovalRule[], command: string, options: Partial<ShellHookOptions> = {}) =>
  (await interruptOf({ requireApproval, ...options }, { name: "shell", args: { command } })) !== undefined;

const attacks: Array<[string, string]> = [
  ["plain", "canary"],
  ["after a pipe", "echo x | canary"],
  ["after &&", "true && canary"],
  ["after ||", "false || canary"],
  ["after ;", "true; canary"],
  ["after a newline", "true\ncanary"],
  ["in the background", "canary & wait"],
  ["negated", "! canary"],
  ["in a subshell", "(canary)"],
  ["in a group", "{ canary; }"],
  ["in $(...)", "echo $(canary)"],
  ["in backticks", "echo `canary`"],
  ["in nested substitutions", 'echo "$(echo "$(canary)")"'],
  ["in <(...)", "cat <(canary)"],
  ["in >(...)", "echo x > >(canary)"],
  ["in a function body", "f() { canary; }; f"],
  ["in a function body (function keyword)", "function f { canary; }; f"],
  ["in a for loop", "for i in 1; do canary; done"],
  ["in a C-style for loop", "for ((i=0; i<1; i++)); do canary; done"],
  ["in a while condition", "while canary; do break; done"],
  ["in an until loop", "until canary; do :; done"],
  ["in an if condition", "if canary; then :; fi"],
  ["in an else branch", "if false; then :; else canary; fi"],
  ["in a case branch", "case x in x) canary;; esac"],
  ["in a here-document", "cat <<EOF\n$(canary)\nEOF"],
  ["in a here-string", 'cat <<< "$(canary)"'],
  ["in arithmetic", "echo $(( $(canary) + 1 ))"],
  ["in an array subscript", "a[$(canary)]=1"],
  ["in a ${} default", "echo ${x:-$(canary)}"],
  ["in an assignment", "x=$(canary)"],
  ["in a redirection target", "echo x > $(canary)"],
  ["in a [[ ]] test", '[[ -n "$(canary)" ]]'],
  ["split by empty quotes", "c''anary"],
  ["split by double quotes", '"can"ary'],
  ["with a backslash", "c\\anary"],
  ["continued on the next line", "ca\\\nnary"],
  ["ANSI-C quoted", "$'\\x63anary'"],
  ["ANSI-C quoted in a pipe", "true | $'\\143anary'"],
  ["brace expansion", "{c,}anary"],
  ["brace expansion in a list", "true; {canary,true}"],
  ["a variable in command position", "x=canary; $x"],
  ["a quoted variable in command position", 'x=canary; "$x"'],
  ["a ${} default in command position", "${unset:-canary}"],
  ["a substitution in command position", "$(echo canary)"],
  ["backticks in command position", "`echo canary`"],
  ["IFS splitting into a command", "IFS=_; x=canary_arg; $x"],
  ["a glob in command position", "canar?"],
  ["eval", "eval canary"],
  ["eval of a substitution", 'eval "$(echo canary)"'],
  ["source of a here-string", "source /dev/stdin <<< canary"],
  [". of a process substitution", ". <(echo canary)"],
  ["command", "command canary"],
  ["command -p", "command -p canary"],
  ["builtin", "builtin eval canary"],
  ["exec", "exec canary"],
  ["alias", "alias l=canary; l"],
  ["expand_aliases", "shopt -s expand_aliases; alias l=canary; l"],
  ["trap on exit", "trap canary EXIT"],
  ["trap on debug", "trap 'canary' DEBUG; true"],
  ["BASH_ENV for a child shell", "BASH_ENV=<(echo canary) bash x.sh"],
  ["ENV assignment", "ENV=x; export ENV"],
  ["PATH assignment", "PATH=/tmp:$PATH canary"],
  ["enable", "enable -n echo; echo"],
  ["coproc", "coproc canary"],
  ["declare -i arithmetic", "declare -i n; n='a[$(canary)]'"],
  ["arithmetic on a string variable", "x='a[$(canary)]'; echo $((x))"],
  ["[[ -eq ]] on a string variable", "x='a[$(canary)]'; [[ $x -eq 1 ]]"],
  ["let", "let 'a[$(canary)]'"],
  ["printf -v with a subscript", "printf -v 'a[$(canary)]' x"],
  ["read into a subscript", "read 'a[$(canary)]' <<< 1"],
  ["test -v with a subscript", "test -v 'a[$(canary)]'"],
  ["indirect expansion", "x=y; echo ${!x}"],
  ["prompt expansion", "x='$(canary)'; echo ${x@P}"],
  ["PS4 with xtrace", "PS4='$(canary)'; set -x; true"],
  ["a hidden substitution in ${x%...}", "echo ${x%$(canary)}"],
  ["backticks in ${x:-...}", "echo ${x:-`canary`}"],
  ["env", "env canary"],
  ["env -S", "env -S canary"],
  ["nice", "nice -n 5 canary"],
  ["timeout", "timeout 5 canary"],
  ["xargs", "echo x | xargs canary"],
  ["find -exec", "find . -maxdepth 0 -exec canary {} \\;"],
  ["find -exec {} as the program", "find . -maxdepth 0 -exec {} \\;"],
  ["sh -c", "sh -c canary"],
  ["a shell reading stdin", "echo canary | bash"],
  ["bash -s", "echo canary | bash -s"],
  ["setarch", "setarch x86_64 canary"],
  ["linux64", "linux64 canary"],
  ["fakeroot", "fakeroot canary"],
  ["sg -c", "sg root -c canary"],
  ["time", "time canary"],
  ["hash -p", `hash -p ${bin}/canary t; t`],
  ["an absolute path", `${bin}/canary`],
  ["a redirection outside the workspace", `echo x > ${ran}/written`],
  ["cd out of the workspace", "cd /; canary"],
  ["an unterminated quote", "echo 'x; canary"],
  ["a select menu", "select x in a; do canary; done"],
  // bash joins backslash-newline before it reads words; the grammar did not
  ["$ and ( joined by a backslash-newline in double quotes", 'echo "$\\\n(canary)"'],
  ["$ and ( joined in a here-string", 'cat <<< "$\\\n(canary)"'],
  ["$ and ( joined in a here-document body", "cat <<EOF\n$\\\n(canary)\nEOF"],
  ["${x@P} split by a backslash-newline", "x='$(canary)'; echo $\\\n{x@P}"],
  ["${!x} split by a backslash-newline", "x=y; echo $\\\n{!x}"],
  ["a comment that is not one", "x\\\n#$(canary)"],
  ["a <<- here-document body", "cat <<-EOF\n\t$(canary)\nEOF"],
  ["backticks in a here-document body", "cat <<EOF\n`canary`\nEOF"],
  ["escaped backticks nested in backticks", "echo `echo \\`canary\\``"],
  ["a shell reading /dev/stdin", "sh /dev/stdin <<< canary"],
  ["a shell reading a process substitution", "bash <(echo canary)"],
  // text bash evaluates as arithmetic code
  ["a quoted operand of [[ -eq ]]", "[[ 'a[$(canary)]' -eq 1 ]]"],
  ["a quoted operand of (( ))", "(( 'a[$(canary)]' ))"],
  ["a quoted operand of $(( ))", 'echo $(( "a[$(canary)]" ))'],
  ["a quoted subscript", "echo ${x['a[$(canary)]']}"],
  ["a quoted array key", "a=(['a[$(canary)]']=1)"],
  ["a second -v in test", "test -v x -a -v 'a[$(canary)]'"],
  ["a second -v in [", "[ -v x -a -v 'a[$(canary)]' ]"],
  ["printf -v glued to its name", "printf -v'a[$(canary)]' x"],
  ["printf -v repeated", "printf -v a -v 'a[$(canary)]' x"],
  ["local -i, then a plain assignment", "f() { local -i n; n='a[$(canary)]'; }; f"],
  ["local -n, then a plain assignment", "f() { local -n r=x; r='a[$(canary)]'; }; f"],
  ["single quotes inside a double-quoted ${x:-...}", `echo "\${x:-'$(canary)'}"`],
];

describe("shell syntax, attacked: a denied program hidden anywhere never runs", () => {
  const shell = hook().tools.find((tool) => tool.name === "shell")!;
  const config = { configurable: { thread_id: "attack" } };

  it.each(attacks)("refuses it %s", async (_name, command) => {
    const result = JSON.parse(String(await shell.invoke({ command }, config)));
    expect(result.status).toBe("refused");
    expect(readdirSync(ran)).toEqual([]);
  });

  it("runs the same constructs when they hide nothing", async () => {
    for (const command of [
      "echo x | cat && true; { echo y; } > out.txt 2>/dev/null",
      'f() { echo "$1"; }; f hi',
      "for i in 1 2; do echo $((i * 2)); done",
      "cat <<EOF\n$(echo inside)\nEOF",
      "true # canary in a comment",
      "echo 'canary'",
    ]) {
      const result = JSON.parse(String(await shell.invoke({ command }, config)));
      expect(result.status, `${command}: ${result.message ?? result.stderr}`).toBe("ok");
    }
    expect(readdirSync(ran)).toEqual([]);
  });
});

describe("what the rules missed before: pieces that cannot be judged ask, grants match the line as typed", () => {
  const gitRules = { allow: ["git:*"] };
  it.each([
    ["an alias given with -c", "git -c alias.p=push p"],
    ["autocorrect given with -c", "git -c help.autocorrect=immediate psuh"],
    ["an unknown global option", "git --no-literal-pathspecs push"],
    ["a repository alias", "git p origin"],
    ["--git-dir and -c before an allowed subcommand", "git --git-dir=r -c core.fsmonitor=x status"],
    ["--upload-pack", "git fetch --upload-pack=canary ."],
    ["--receive-pack", "git push --receive-pack=canary . HEAD"],
    ["clone -u", "git clone -u canary . copy"],
    ["git config writing a filter", "git config filter.x.clean canary"],
    ["a branch name known only at run time", 'b=main; git push origin "$b"'],
    ["git push split by a backslash-newline inside a word", "git pu\\\nsh"],
  ])("interrupts for %s (allow git:*, requireApproval git push)", async (_name, command) => {
    expect(await interrupts(["git push"], command, gitRules)).toBe(true);
  });

  it("interrupts for xargs reading git's subcommand from the call's stdin (requireApproval git push)", async () => {
    const request = await interruptOf(
      { requireApproval: ["git push"] },
      { name: "shell", args: { command: "xargs git", stdin: "push\n" } },
    );
    expect(request?.command).toBe("xargs git");
  });

  it.each([
    ["the subcommand on xargs' stdin", "echo push | xargs git"],
    ["setarch", "setarch x86_64 git push"],
    ["linux64", "linux64 git push"],
    ["fakeroot", "fakeroot git push"],
    ["sg -c", "sg root -c 'git push'"],
  ])("interrupts for %s (requireApproval git push)", async (_name, command) => {
    expect(await interrupts(["git push"], command)).toBe(true);
  });

  it("a skill's Bash(git status:*) grant pre-approves `git status`, never a line that only reduces to it", async () => {
    const chatRule: ApprovalRule = (candidate) => !preApprovedBySkill(candidate, catalog as never);
    const asks = async (command: string) =>
      (await interruptOf(
        { requireApproval: [chatRule] },
        { name: "run_skill_script", args: { skill: "git-reader", command } },
      )) !== undefined;
    expect(await asks("git status")).toBe(false);
    expect(await asks("git status | head -3")).toBe(true);
    expect(await asks("git status; git push")).toBe(true);
    expect(await asks("git --git-dir=r -c core.fsmonitor=x status")).toBe(true);
    expect(await asks("git -c core.fsmonitor=x status")).toBe(true);
  });

  it("an approval key names the skill and the file run: one skill's scripts/run.sh is not another's", async () => {
    const ask = (name: string) =>
      interruptOf(
        { requireApproval: [() => true] },
        { name: "run_skill_script", args: { skill: name, command: "scripts/run.sh" } },
      );
    const [one, two] = [await ask("one"), await ask("two")];
    expect(one?.key).toEqual(expect.any(String));
    expect(one?.key).not.toBe(two?.key);
    expect(one?.command).toBe(two?.command);
  });
});

describe("writes outside the workspace under the local executor (no sandbox): refused or asked about", () => {
  const guarded = hook();
  const shell = guarded.tools.find((tool) => tool.name === "shell")!;
  const config = { configurable: { thread_id: "paths" } };
  const parent = () => path.dirname(guarded.workspacePath("paths"));

  it.each([
    ["cp -t..", "cp -t.. x"],
    ["install -t..", "install -t.. x"],
    ["mv -t..", "mv -t.. x"],
    ["cp --target-directory=..", "cp --target-directory=.. x"],
    ["dd of=..", "dd if=x of=../escaped"],
    ["sort -o..", "sort -o../escaped x"],
    ["${PWD%/*}", "echo x > ${PWD%/*}/escaped"],
    ["~/..", "echo x > ~/../escaped"],
    ["a variable holding ..", "d=..; echo x > $d/escaped"],
    ["/proc/$$/cwd", "echo x > /proc/$$/cwd/../escaped"],
    ["/proc/self/cwd", "cp x /proc/self/cwd/../escaped"],
  ])("refuses %s", async (_name, command) => {
    expect(JSON.parse(String(await shell.invoke({ command: "echo x > x" }, config))).status).toBe("ok");
    const before = readdirSync(parent()).sort();
    const result = JSON.parse(String(await shell.invoke({ command }, config)));
    expect(result.status).toBe("refused");
    expect(readdirSync(parent()).sort()).toEqual(before);
  });
});
