// Old (base commit) vs new shell tool call, alternated call by call in one process.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createShellHook as newHook } from "../packages/shell/src/index.js";
import { createShellHook as oldHook } from "/tmp/hardening-base/packages/shell/src/index.js";

const runs = Number(process.env.RUNS ?? 80);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const catalog = { get: () => undefined };
for (const executor of ["local", "bubblewrap"] as const) {
  const hooks = { old: oldHook({ skills: catalog, executor, alwaysVisible: true } as never), new: newHook({ skills: catalog, executor, alwaysVisible: true }) };
  const samples: Record<string, number[]> = { old: [], new: [] };
  for (const [name, hook] of Object.entries(hooks)) {
    const ws = (hook as any).workspacePath("bench");
    mkdirSync(path.join(ws, "out"), { recursive: true });
    writeFileSync(path.join(ws, "out", "keep.txt"), "x");
  }
  for (let index = 0; index < runs + 5; index += 1) {
    const order = index % 2 === 0 ? (["old", "new"] as const) : (["new", "old"] as const);
    for (const name of order) {
      const shell = (hooks[name] as any).tools.find((tool: any) => tool.name === "shell");
      const started = performance.now();
      const result = JSON.parse(String(await shell.invoke({ command: "true" }, { configurable: { thread_id: "bench" } })));
      if (result.status !== "ok") throw new Error(JSON.stringify(result));
      if (index >= 5) samples[name]!.push(performance.now() - started);
    }
  }
  const oldMs = median(samples.old!);
  const newMs = median(samples.new!);
  console.log(`shell tool call (${executor}) p50: before ${oldMs.toFixed(2)} ms, after ${newMs.toFixed(2)} ms, delta ${(newMs - oldMs).toFixed(2)} ms (n=${runs}, alternated)`);
  await (hooks.old as any).dispose?.();
  await (hooks.new as any).dispose?.();
}
