// Where workspaces live and when they go, and the conventions of skills written for other runtimes: the default root
// is made on first use and removed by dispose(); an app's root is kept and found again by a new hook (a new process);
// the age limit sweeps unused workspaces; $OUTPUT_DIR / $WORK_DIR / $WORKSPACE_DIR; an empty file of a failed command
// is flagged, not returned; editor_text answers a program that opens $EDITOR.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "@skillgraph/core";
import { createShellHook, type ShellHookOptions } from "@skillgraph/shell";
import { bubblewrapWorks } from "../../../../test/security/attack-harness.js";

function skillWithScripts(scripts: Record<string, string>): SkillMetadata {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lifecycle-skill-"));
  mkdirSync(path.join(dir, "scripts"));
  writeFileSync(path.join(dir, "SKILL.md"), "---\nname: conventions\ndescription: d\n---\n");
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(path.join(dir, "scripts", name), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(dir, "scripts", name), 0o755);
  }
  return {
    name: "conventions",
    description: "d",
    allowedTools: [],
    extra: {},
    dir,
    file: path.join(dir, "SKILL.md"),
    origin: { sourceId: "code:test", layer: "explicit", kind: "code" },
    hash: "0",
    diagnostics: [],
  };
}

const skill = skillWithScripts({
  "aliases.sh": 'echo "$WORKSPACE_DIR|$WORK_DIR|$OUTPUT_DIR"; echo written > "$OUTPUT_DIR/alias.txt"',
  "fail-empty.sh": ': > "$OUTPUT_DIR/result.txt"; echo "no data" >&2; exit 3',
  "edit.sh": 'f="$WORKSPACE/out/message.txt"; : > "$f"; $EDITOR "$f" && cat "$f"',
  "write.sh": 'echo "$1" > "$OUTPUT_DIR/report.md"',
});

function hookFor(executor: "local" | "bubblewrap", options: Partial<ShellHookOptions> = {}) {
  return createShellHook({
    skills: { get: (name: string) => (name === skill.name ? skill : undefined) },
    executor,
    loadedSkills: () => [skill.name],
    ...options,
  });
}

async function call(hook: ReturnType<typeof hookFor>, thread: string, input: Record<string, unknown>) {
  const tool = hook.tools.find((candidate) => candidate.name === "run_skill_script")!;
  const output = await tool.invoke({ skill: "conventions", ...input }, { configurable: { thread_id: thread } });
  return JSON.parse(String(output)) as Record<string, any>;
}

const executors: ReadonlyArray<"local" | "bubblewrap"> =
  bubblewrapWorks() || process.env.CI === "true" ? ["local", "bubblewrap"] : ["local"];

describe.each(executors)("workspace lifecycle and skill conventions (%s)", (executor) => {
  it("makes the default root on first use and removes it with dispose()", async () => {
    // a TMPDIR of its own, so other processes' temporary folders do not count
    const tmp = mkdtempSync(path.join(os.tmpdir(), "lifecycle-tmp-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const hook = hookFor(executor);
      expect(readdirSync(tmp)).toEqual([]);
      await call(hook, "t", { command: "scripts/write.sh hello" });
      expect(readdirSync(tmp)).toHaveLength(1);
      expect(existsSync(path.join(hook.workspacePath("t"), "out/report.md"))).toBe(true);
      await hook.dispose();
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it("keeps an app's root: a new hook (another process) finds the thread's files; the age limit sweeps the unused", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "lifecycle-root-"));
    const first = hookFor(executor, { workspaceRoot: root });
    await call(first, "kept", { command: "scripts/write.sh first-run" });
    await call(first, "stale", { command: "scripts/write.sh old" });
    await first.dispose();
    const second = hookFor(executor, { workspaceRoot: root, workspaceMaxAgeMs: 60_000 });
    const stale = second.workspacePath("stale");
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(stale, old, old);
    const read = await call(second, "kept", { command: "cat out/report.md" });
    expect(read.stdout).toBe("first-run\n");
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(second.workspacePath("kept"))).toBe(true);
    await second.dispose();
  });

  it("sets $OUTPUT_DIR, $WORK_DIR and $WORKSPACE_DIR as aliases of $OUT_DIR and $WORKSPACE", async () => {
    const hook = hookFor(executor);
    try {
      const result = await call(hook, "aliases", { command: "scripts/aliases.sh" });
      const workspace = executor === "bubblewrap" ? "/workspace" : hook.workspacePath("aliases");
      expect(result.stdout).toBe(`${workspace}|${workspace}|${workspace}/out\n`);
      expect(result.output_files.map((file: { path: string }) => file.path)).toEqual(["out/alias.txt"]);
      // on the command line too
      const line = await call(hook, "aliases", { command: "cat $OUTPUT_DIR/alias.txt" });
      expect(line.stdout).toBe("written\n");
    } finally {
      await hook.dispose();
    }
  });

  it("flags the empty file a failed command left instead of returning it as the result", async () => {
    const hook = hookFor(executor);
    try {
      const result = await call(hook, "empty", {
        command: "scripts/fail-empty.sh",
        outputs: { primary: "out/result.txt" },
      });
      expect(result).toMatchObject({ status: "failed", exit_code: 3, output_files: [] });
      expect(result.empty_outputs_of_failed_command).toEqual(["out/result.txt"]);
      expect(result.primary_output).toBeUndefined();
    } finally {
      await hook.dispose();
    }
  });

  it("answers a program that opens $EDITOR with editor_text", async () => {
    const hook = hookFor(executor);
    try {
      const result = await call(hook, "editor", { command: "scripts/edit.sh", editor_text: "Fix the totals\n" });
      expect(result).toMatchObject({ status: "ok", stdout: "Fix the totals\n" });
    } finally {
      await hook.dispose();
    }
  });

  it("reports stage, run, collect and save as callback custom events, and runs save_as_artifacts without a store", async () => {
    const hook = hookFor(executor);
    try {
      const events: Array<{ name: string; data: any }> = [];
      const tool = hook.tools.find((candidate) => candidate.name === "run_skill_script")!;
      const output = await tool.invoke(
        {
          skill: "conventions",
          command: "scripts/write.sh traced",
          files: [{ path: "in/x.txt", content: "x" }],
          outputs: { save_as_artifacts: true },
        },
        {
          configurable: { thread_id: "spans" },
          callbacks: [{ handleCustomEvent: (name: string, data: unknown) => void events.push({ name, data }) }],
        },
      );
      const result = JSON.parse(String(output));
      expect(result.status).toBe("ok");
      expect(result.output_files.map((file: { path: string }) => file.path)).toEqual(["out/report.md"]);
      expect(result.artifacts_warning).toMatch(/no artifact store is configured/);
      const stages = events.filter((event) => event.name === "skillgraph_shell_stage").map((event) => event.data);
      expect(stages.map((span) => span.stage)).toEqual(["stage", "run", "collect"]);
      expect(stages[1]).toMatchObject({ tool: "run_skill_script", skill: "conventions", detail: { exitCode: 0 } });
      expect(stages[2]).toMatchObject({ detail: { files: 1 } });
    } finally {
      await hook.dispose();
    }
  });
});
