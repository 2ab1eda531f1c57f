// One sample of bench/snapshot-codec.ts in a fresh process. Modes:
//   write DIR FILE  builds the registry snapshot FILE for DIR (the codec is whichever core resolves: see the parent)
//   load DIR FILE   cold start from FILE: createSkillRegistry with that snapshot; prints the wall and CPU time
//   read DIR FILE   only the snapshot file read (read, JSON.parse, check every entry), as the registry's first step
import { performance } from "node:perf_hooks";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { readSnapshotFile } from "../packages/core/src/snapshot/snapshot-file.js";

const [mode, dir, file] = process.argv.slice(2) as [string, string, string];
const sources = [skillsFromDirectory(dir)];
if (mode === "write") {
  await (await createSkillRegistry({ sources, snapshot: file, searchIndex: "eager" })).close();
  process.stdout.write("{}\n");
} else {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let count: number;
  if (mode === "load") {
    const registry = await createSkillRegistry({ sources, snapshot: file });
    count = registry.list().length;
    const invalid = registry.diagnostics().filter((diagnostic) => diagnostic.code.startsWith("registry-snapshot"));
    if (invalid.length > 0) throw new Error(`snapshot not used: ${invalid[0]!.message}`);
  } else {
    const read = await readSnapshotFile(file, {
      settings: { strict: false, maxBytes: 1024 * 1024 },
      sources: [sources[0]!.id],
    });
    if (!read.snapshot) throw new Error(`snapshot not read: ${read.diagnostics[0]?.message ?? "missing"}`);
    count = read.snapshot.count;
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(`${JSON.stringify({ mode, count, ms, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
}
