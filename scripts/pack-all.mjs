#!/usr/bin/env node
// Packs every publishable package into dist-tarballs/ exactly as `pnpm publish` would upload it (workspace ranges
// rewritten, publishConfig applied), under a name without the version (dist-tarballs/skillgraph-core.tgz), and prints
// the npm install line for an app outside the repository. Builds first (turbo: cached when nothing changed).
// Usage: `pnpm pack:all` or node scripts/pack-all.mjs [--out DIR] [--no-build]
// (progress on stderr; stdout: the install line only)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outIndex = process.argv.indexOf("--out");
const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(root, "dist-tarballs"));

/** The publishable (non-private) package folders under packages/, in a stable order. */
function publishablePackages() {
  return readdirSync(join(root, "packages"))
    .sort()
    .map((dir) => join(root, "packages", dir))
    .filter(
      (dir) =>
        existsSync(join(dir, "package.json")) && !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private,
    );
}

const started = Date.now();
if (!process.argv.includes("--no-build")) {
  console.error("building the packages (turbo run build)...");
  const build = spawnSync(
    "bash",
    [join(root, "scripts", "pnpm.sh"), "exec", "turbo", "run", "build", "--output-logs=errors-only"],
    {
      cwd: root,
      stdio: ["ignore", 2, 2],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  console.error(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
mkdirSync(out, { recursive: true });
const tarballs = [];
for (const dir of publishablePackages()) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (!existsSync(join(dir, "dist"))) {
    console.error(`${manifest.name}: no dist/ (run \`pnpm build\` first, or use \`pnpm pack:all\`, which builds)`);
    process.exit(1);
  }
  const packed = execFileSync("bash", [join(root, "scripts", "pnpm.sh"), "pack", "--json", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const filename = JSON.parse(packed.slice(packed.indexOf("{"))).filename;
  const stable = join(out, `${manifest.name.replace(/^@/, "").replace("/", "-")}.tgz`);
  rmSync(stable, { force: true });
  renameSync(filename, stable);
  tarballs.push(stable);
  console.error(`packed ${manifest.name}@${manifest.version} -> ${stable}`);
}
console.error(
  `packed ${tarballs.length} packages in ${((Date.now() - started) / 1000).toFixed(1)} s; install them into an app with:`,
);
console.log(`npm install ${tarballs.join(" ")}`);
