// Program-level deny rules must hold where programs start, whoever starts them. The static planner is not involved
// here: the executor runs each line as given (`shellCommand`), as if the planner had let it through. The denied
// program is a test binary that creates /workspace/DENIED_RAN; each line must never create it under exec enforcement,
// and (the control, so no case passes by being broken) the same line creates it in the same sandbox without it.
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser, withBashTree, type SyntaxNode } from "../../packages/shell/src/command/bash-parser.js";
import { createBubblewrapExecutor } from "../../packages/shell/src/executor/bubblewrap-executor.js";
import type { CommandExecutor, ExecutionRequest } from "../../packages/shell/src/executor/executor-types.js";
import { attackHarness, bubblewrapWorks } from "./attack-harness.js";
import { nestedLines, PROGRAM_CONSTRUCTS, SYNTAX_CONSTRUCTS, type HidingConstruct } from "./exec-enforcement-cases.js";

const DENIED = "denied-tool";
const MARKER = "DENIED_RAN";
const canSandbox = bubblewrapWorks();
const requireFromShell = createRequire(new URL("../../packages/shell/package.json", import.meta.url));
const nodeTypes = JSON.parse(
  readFileSync(requireFromShell.resolve("tree-sitter-bash/src/node-types.json"), "utf8"),
) as Array<{ type: string; named: boolean }>;

/** Copies of the denied program's bytes that a line may try to run (placed in the workspace by the host). */
const COPY_TRICKS: readonly HidingConstruct[] = [
  { nodeType: "copy in the workspace", wrap: () => "./copy" },
  { nodeType: "static copy", wrap: () => "./copy-static" },
  { nodeType: "copy made by the line", wrap: () => `cp "$(command -v ${DENIED})" c2 && chmod +x c2 && ./c2` },
  { nodeType: "copy in /tmp", wrap: () => "cp copy /tmp/c && chmod +x /tmp/c && /tmp/c" },
  { nodeType: "copy in /dev/shm", wrap: () => "cp copy /dev/shm/c && chmod +x /dev/shm/c && /dev/shm/c" },
  { nodeType: "ld.so ./copy", wrap: () => "/lib64/ld-linux-x86-64.so.2 ./copy" },
  { nodeType: "shebang naming the copy", wrap: () => "printf '#!/workspace/copy\\n' > s && chmod +x s && ./s" },
  {
    nodeType: "memfd + fexecve",
    wrap: () =>
      `python3 -c 'import os; fd = os.memfd_create("x", 0); os.write(fd, open("copy", "rb").read()); os.execve(fd, ["x"], {})'`,
  },
  {
    nodeType: "memfd + ld.so",
    wrap: () =>
      `python3 -c 'import os; fd = os.memfd_create("x", 0); os.write(fd, open("copy", "rb").read()); os.set_inheritable(fd, True); os.execv("/lib64/ld-linux-x86-64.so.2", ["ld.so", "/proc/self/fd/%d" % fd])'`,
  },
  {
    nodeType: "O_TMPFILE + fexecve",
    wrap: () =>
      `python3 -c 'import os; fd = os.open("/tmp", os.O_TMPFILE | os.O_RDWR, 0o755); os.write(fd, open("copy", "rb").read()); r = os.open("/proc/self/fd/%d" % fd, os.O_RDONLY); os.close(fd); os.execve(r, ["x"], {})'`,
  },
];

let toolsDir = "";
let enforced: CommandExecutor;
let plain: CommandExecutor;

function compileMarker(output: string, flags: string[] = []): void {
  const source = path.join(toolsDir, "marker.c");
  writeFileSync(source, `#include <fcntl.h>\nint main(void) { return creat("/workspace/${MARKER}", 0644) < 0; }\n`);
  execFileSync("gcc", ["-O2", ...flags, "-o", output, source]);
}

function request(line: string, deniedPrograms: readonly string[]): ExecutionRequest {
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "exec-enforcement-ws-"));
  copyFileSync(path.join(toolsDir, DENIED), path.join(workspaceDir, "copy"));
  copyFileSync(path.join(toolsDir, "static-marker"), path.join(workspaceDir, "copy-static"));
  execFileSync("chmod", ["+x", path.join(workspaceDir, "copy"), path.join(workspaceDir, "copy-static")]);
  return {
    argv: [],
    shellCommand: line,
    searchPath: `${toolsDir}:/usr/local/bin:/usr/bin:/bin`,
    cwd: workspaceDir,
    workspaceDir,
    deniedPrograms,
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 24,
    runId: randomUUID(),
  };
}

/** Runs `line` on the executor; true when the denied program ran (its marker exists). */
async function ran(executor: CommandExecutor, line: string, denied: readonly string[] = [DENIED]) {
  const job = request(line, denied);
  const result = await executor.run(job);
  return { ran: existsSync(path.join(job.workspaceDir, MARKER)), result };
}

/** Runs `line` without, then with enforcement: whether the denied program started in each, and what was said. */
async function startsWithoutAndWith(line: string) {
  const control = await ran(plain, line);
  const guarded = await ran(enforced, line);
  return {
    without: control.ran,
    with: guarded.ran,
    detail: `${line}\n-- without enforcement, stderr:\n${control.result.stderr}\n-- with, stderr:\n${guarded.result.stderr}`,
  };
}

/** The property: the line starts the denied program without enforcement (the control) and never with it. */
async function expectHeldOnlyByEnforcement(line: string): Promise<void> {
  const outcome = await startsWithoutAndWith(line);
  expect({ without: outcome.without, with: outcome.with }, outcome.detail).toEqual({ without: true, with: false });
}

function hasNodeType(root: SyntaxNode, type: string): boolean {
  if (root.type === type) return true;
  return root.children.some((child) => child !== null && hasNodeType(child, type));
}

describe.skipIf(!canSandbox)("exec enforcement under bubblewrap (planner not involved)", () => {
  beforeAll(async () => {
    // not under /tmp: the sandbox has a /tmp of its own, which would hide it
    toolsDir = mkdtempSync("/var/tmp/exec-enforcement-tools-");
    compileMarker(path.join(toolsDir, DENIED));
    compileMarker(path.join(toolsDir, "static-marker"), ["-static"]);
    enforced = createBubblewrapExecutor({ execEnforcement: true, readOnlyPaths: [toolsDir] });
    plain = createBubblewrapExecutor({ readOnlyPaths: [toolsDir] });
    await loadBashParser();
  });

  it("keys every syntax construct to a node type of tree-sitter-bash, and each line has that node", () => {
    const named = new Set(nodeTypes.filter((type) => type.named).map((type) => type.type));
    for (const construct of SYNTAX_CONSTRUCTS) {
      expect(named.has(construct.nodeType), construct.nodeType).toBe(true);
      const line = construct.wrap(DENIED);
      withBashTree(line, (root) => {
        expect(root.hasError, line).toBe(false);
        expect(hasNodeType(root, construct.nodeType), `${construct.nodeType} in ${line}`).toBe(true);
      });
    }
  });

  it("still runs allowed programs (bash, git, python3, make) and says why a denied one did not start", async () => {
    const allowed = await enforced.run(
      request("git --version && python3 -c 'print(6 * 7)' && make --version | head -1", [DENIED]),
    );
    expect(allowed.stderr).toBe("");
    expect(allowed.stdout).toMatch(/git version[\s\S]*42\n[\s\S]*GNU Make/);
    const refused = await ran(enforced, DENIED);
    expect(refused.ran).toBe(false);
    expect(refused.result.exitCode).toBe(126);
    expect(refused.result.stderr).toContain(`'${toolsDir}/${DENIED}' is denied by the command rules; it did not run`);
  });

  for (const construct of [...SYNTAX_CONSTRUCTS, ...PROGRAM_CONSTRUCTS])
    it(`holds through ${construct.nodeType}`, async () => {
      const outcome = await startsWithoutAndWith(construct.wrap(DENIED));
      expect({ without: outcome.without, with: outcome.with }, outcome.detail).toEqual({ without: true, with: false });
    });

  for (const trick of COPY_TRICKS)
    it(`runs no copy of the bytes: ${trick.nodeType}`, async () => {
      const outcome = await startsWithoutAndWith(trick.wrap(DENIED));
      expect({ without: outcome.without, with: outcome.with }, outcome.detail).toEqual({ without: true, with: false });
    });

  it("holds for nested constructs (fast-check, 40 lines, each with its control)", async () => {
    await fc.assert(
      fc.asyncProperty(nestedLines([...SYNTAX_CONSTRUCTS, ...PROGRAM_CONSTRUCTS], DENIED), expectHeldOnlyByEnforcement),
      { numRuns: 40 },
    );
  });

  it("moves and links files between folders (a Landlock ruleset that does not handle REFER refuses every such move)", async () => {
    const result = await enforced.run(
      request("mkdir a b && echo x > a/f && mv a/f b/f && ln b/f a/g && mv b /tmp/b && cat a/g /tmp/b/f", [DENIED]),
    );
    expect({ stdout: result.stdout, stderr: result.stderr }).toEqual({ stdout: "x\nx\n", stderr: "" });
  });

  it("runs no copy through the sandbox's first process's view of the mounts (/proc/1/root, where nothing is noexec)", async () => {
    const line = "/lib64/ld-linux-x86-64.so.2 /proc/1/root/workspace/copy";
    const guarded = await ran(enforced, line);
    expect(guarded.ran).toBe(false);
    expect(guarded.result.stderr).toContain("Permission denied");
  });

  it("refuses mount(2) even in a user namespace of the command's own (a fresh tmpfs would not be noexec)", async () => {
    const line = [
      "python3 - <<'EOF'",
      "import ctypes, os",
      "libc = ctypes.CDLL(None, use_errno=True)",
      'print("unshare", libc.unshare(0x10000000 | 0x00020000))',
      'print("mount", libc.mount(b"x", b"/tmp", b"tmpfs", 0, None), os.strerror(ctypes.get_errno()))',
      "EOF",
    ].join("\n");
    const result = await enforced.run(request(line, [DENIED]));
    // the unshare passes (the command then holds CAP_SYS_ADMIN over a new mount namespace); the mount must not
    expect(result.stdout).toContain("unshare 0\n");
    expect(result.stdout).toMatch(/mount -1 Operation not permitted/);
  });

  it("denies every hard link of a denied file (perl and its versioned name are one file)", async () => {
    const links = spawnSync("find", ["/usr/bin", "-samefile", "/usr/bin/perl"], { encoding: "utf8" }).stdout.split(
      "\n",
    );
    const other = links.find((link) => link !== "" && link !== "/usr/bin/perl");
    expect(other, "this test needs /usr/bin/perl with a second hard link (Debian's perl5.x)").toBeDefined();
    const line = `${other} -e 'open(F, ">/workspace/${MARKER}")'`;
    expect((await ran(plain, line, ["perl"])).ran).toBe(true);
    expect((await ran(enforced, line, ["perl"])).ran).toBe(false);
  });

  it("holds through the shell hook: the deny list reaches the sandbox, a skill script hiding the program is stopped", async () => {
    const harnessWith = (execEnforcement: boolean) =>
      attackHarness("bubblewrap", {
        bubblewrap: { execEnforcement, readOnlyPaths: [toolsDir] },
        deny: [DENIED],
        fixedPath: `${toolsDir}:/usr/local/bin:/usr/bin:/bin`,
      });
    for (const [execEnforcement, expected] of [
      [false, true],
      [true, false],
    ] as const) {
      const harness = harnessWith(execEnforcement);
      // the planner sees `scripts/hidden.sh`; what the script starts is decided where it starts
      const hidden = path.join(harness.skillDir, "scripts", "hidden.sh");
      writeFileSync(hidden, `#!/bin/sh\npython3 -c 'import subprocess; subprocess.run(["${DENIED}"])'\necho done\n`);
      chmodSync(hidden, 0o755);
      const result = await harness.call("run_skill_script", { skill: "attacker", command: "scripts/hidden.sh" });
      expect(result.stdout, JSON.stringify(result)).toContain("done");
      expect(existsSync(path.join(harness.workspace, MARKER)), `execEnforcement: ${execEnforcement}`).toBe(expected);
      await harness.hook.dispose();
    }
  });
});
