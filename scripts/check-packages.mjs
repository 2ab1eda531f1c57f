#!/usr/bin/env node
// Packs every publishable package exactly as `pnpm publish` would (workspace ranges rewritten, publishConfig applied)
// and checks each tarball with publint (--strict: warnings fail too) and Are the Types Wrong (profile esm-only: the
// packages are ESM only, so the node10 and CommonJS-importer resolutions are not expected to work).
// Usage: node scripts/check-packages.mjs [--keep DIR]   (exit 0 when every package passes)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const keepIndex = process.argv.indexOf("--keep");
const out = keepIndex > 0 ? process.argv[keepIndex + 1] : mkdtempSync(join(tmpdir(), "skillgraph-check-packages-"));
const bin = (name) => join(root, "node_modules", ".bin", name);

/** The publishable (non-private) packages under packages/. */
export function publishablePackages() {
  return readdirSync(join(root, "packages"))
    .map((dir) => join(root, "packages", dir))
    .filter(
      (dir) =>
        existsSync(join(dir, "package.json")) && !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private,
    );
}

let failed = 0;
for (const dir of publishablePackages()) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (!existsSync(join(dir, "dist"))) {
    console.error(`${manifest.name}: no dist/ (run pnpm build first)`);
    failed++;
    continue;
  }
  const packed = execFileSync("bash", [join(root, "scripts", "pnpm.sh"), "pack", "--json", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tarball = JSON.parse(packed.slice(packed.indexOf("{"))).filename;
  for (const [tool, args] of [
    ["publint", ["run", tarball, "--strict"]],
    [
      "attw",
      [
        tarball,
        "--profile",
        "esm-only",
        "--no-definitely-typed",
        "--format",
        "table-flipped",
        "--no-color",
        "--no-emoji",
      ],
    ],
  ]) {
    const result = spawnSync(bin(tool), args, { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const ok = result.status === 0;
    if (!ok) failed++;
    console.log(`${ok ? "ok  " : "FAIL"} ${tool.padEnd(7)} ${manifest.name}`);
    if (!ok || process.env.VERBOSE) console.log(`${result.stdout}${result.stderr}`.trim().replace(/^/gm, "     "));
  }
}
if (keepIndex < 0) rmSync(out, { recursive: true, force: true });
console.log(failed ? `${failed} check(s) failed` : "every package passes publint and attw");
process.exit(failed ? 1 : 0);
