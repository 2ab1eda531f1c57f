// `pnpm bench`: runs every benchmark in turn (each in its own process) and prints where the JSON results went.
// Pass --quick for a smoke run, or names to run a subset: pnpm bench core shell
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const all: Record<string, string> = {
  core: "core-registry.ts",
  search: "search-quality.ts",
  interceptor: "interceptor-overhead.ts",
  "prompt-cache": "prompt-cache.ts",
  shell: "shell-overhead.ts",
  checkpoint: "checkpoint-storage.ts",
  cli: "cli-list.ts",
};
const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("--"));
const picked = args.filter((arg) => !arg.startsWith("--"));
const names = picked.length > 0 ? picked : Object.keys(all);
let failed = 0;
for (const name of names) {
  const file = all[name];
  if (!file) {
    console.error(`unknown benchmark '${name}' (known: ${Object.keys(all).join(", ")})`);
    process.exit(2);
  }
  const path = join(import.meta.dirname, file);
  if (!existsSync(path)) {
    console.log(`\n== ${name}: not present (${file})`);
    continue;
  }
  console.log(`\n== ${name} (${file})`);
  const result = spawnSync(
    process.execPath,
    ["--expose-gc", "--conditions=@skillgraph/source", "--import", "tsx", path, ...flags],
    { stdio: "inherit" },
  );
  if (result.status !== 0) failed++;
}
console.log(`\nbenchmarks done; results in bench/results/*.json${failed ? ` (${failed} failed)` : ""}`);
process.exit(failed ? 1 : 0);
