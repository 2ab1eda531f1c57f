// Installs the packages as a user would: `pnpm pack:all` (the README's command), then `npm install` the tarballs into a fresh project
// outside the workspace (no workspace links, no @skillgraph/source condition) that has its own, OLDER LangChain
// (other minor/patch releases than the workspace's). Then: one copy of @langchain/core, the README quick start runs
// against the local OpenAI-compatible server, and `npx skillgraph` works (including a SQLite session store).
//
// Time: npm runs with --prefer-offline on its normal cache (first run downloads, later runs reuse it). better-sqlite3
// is a native module: prebuild-install is pointed at a local prebuild made from the workspace's own build of the same
// version (the same mechanism as a downloaded prebuilt binary); without one it builds from source against /usr.
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { REPO_ROOT } from "../support/shared-paths.js";

/** The user's own LangChain: each an older release than the workspace's, each inside the packages' peer ranges. */
const USER_DEPENDENCIES = {
  "@langchain/core": "1.3.5", // workspace 1.4.0
  "@langchain/langgraph": "1.7.1", // workspace 1.7.3
  langchain: "1.5.12", // workspace 1.5.14
  "@langchain/openai": "1.5.7", // workspace 1.5.8
  "@langchain/langgraph-checkpoint-sqlite": "1.0.3", // workspace 1.0.4
  "@langchain/langgraph-checkpoint-postgres": "1.0.4", // workspace 1.0.5
};

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** The README's library quick start (the first ```ts block under "## Quick start"). */
function quickStartSource(): string {
  const match = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, "README.md"), "utf8"));
  if (!match) throw new Error("README.md has no ```ts block under '## Quick start'");
  return match[1]!;
}

/** A prebuild-install folder holding the workspace's better-sqlite3 binary, when the workspace has one built. */
function localSqlitePrebuild(into: string): { version: string; folder: string } | undefined {
  const store = join(REPO_ROOT, "node_modules", ".pnpm");
  const entry = readdirSync(store).find((name) => name.startsWith("better-sqlite3@"));
  if (!entry) return undefined;
  const dir = join(store, entry, "node_modules", "better-sqlite3");
  if (!existsSync(join(dir, "build", "Release", "better_sqlite3.node"))) return undefined;
  const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  const folder = join(into, "prebuilds");
  mkdirSync(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tar = spawnSync("tar", ["-czf", join(folder, name), "-C", dir, "build/Release/better_sqlite3.node"], {
    stdio: "ignore",
  });
  return tar.status === 0 ? { version, folder } : undefined;
}

describe("the packed packages, installed with npm into a project outside the workspace", () => {
  const work = mkdtempSync(join(realpathSync(tmpdir()), "skillgraph-tarballs-"));
  const project = join(work, "user-app");
  let server: OpenAICompatibleServer | undefined;
  let npmEnv: NodeJS.ProcessEnv;
  let installLine = "";

  beforeAll(async () => {
    // The documented command (README "Install from the repository"): builds, packs exactly what `pnpm publish` would
    // upload (workspace:^ rewritten, publishConfig.exports applied) into dist-tarballs/ and prints the install line.
    const packed = await run("bash", [join(REPO_ROOT, "scripts", "pnpm.sh"), "--silent", "pack:all"], REPO_ROOT, {
      ...process.env,
    });
    if (packed.code !== 0) throw new Error(`pnpm pack:all failed (exit ${packed.code}):\n${packed.stderr}`);
    installLine = packed.stdout.trim();
    const tarballs = installLine.replace(/^npm install /, "").split(" ");
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "user-app", private: true, type: "module" }, null, 2),
    );
    cpSync(join(REPO_ROOT, "examples", "skills"), join(project, "examples", "skills"), { recursive: true });

    const prebuild = localSqlitePrebuild(work);
    npmEnv = {
      PATH: process.env.PATH ?? "/usr/bin",
      HOME: process.env.HOME ?? work,
      npm_config_nodedir:
        process.env.npm_config_nodedir ?? (existsSync("/usr/include/node/node.h") ? "/usr" : undefined),
      npm_config_update_notifier: "false",
      ...(prebuild ? { npm_config_better_sqlite3_local_prebuilds: prebuild.folder } : {}),
    };
    const specs = [
      ...tarballs,
      ...Object.entries(USER_DEPENDENCIES).map(([name, version]) => `${name}@${version}`),
      ...(prebuild ? [`better-sqlite3@${prebuild.version}`] : []),
      "tsx@4",
    ];
    const install = await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...specs],
      project,
      npmEnv,
    );
    if (install.code !== 0)
      throw new Error(`npm install failed (exit ${install.code}):\n${install.stdout}\n${install.stderr}`);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("packs every package into dist-tarballs/ under the names the READMEs' install lines use", () => {
    const tarballs = installLine.replace(/^npm install /, "").split(" ");
    expect(tarballs.map((path) => path.slice(REPO_ROOT.length + 1))).toEqual(
      ["checkpoint", "cli", "core", "langgraph", "shell"].map((name) => `dist-tarballs/skillgraph-${name}.tgz`),
    );
    // Every README that shows an install line shows tarballs pack:all makes (clone beside the app: ../skillgraph/).
    for (const readme of [
      "README.md",
      ...readdirSync(join(REPO_ROOT, "packages")).map((p) => `packages/${p}/README.md`),
    ]) {
      const text = readFileSync(join(REPO_ROOT, readme), "utf8");
      expect(text, readme).toMatch(/not yet on npm/i);
      const named = [...text.matchAll(/\.\.\/skillgraph\/(dist-tarballs\/[\w-]+\.tgz)/g)].map((m) => m[1]!);
      expect(named.length, readme).toBeGreaterThan(0);
      for (const path of named) expect(existsSync(join(REPO_ROOT, path)), `${readme}: ${path}`).toBe(true);
    }
  });

  it("has exactly one copy of @langchain/core (the user's), and the user's LangChain versions", async () => {
    const ls = await run("npm", ["ls", "@langchain/core", "--all", "--json"], project, npmEnv);
    expect(ls.code, ls.stderr).toBe(0);
    const versions = new Set<string>();
    const visit = (node: { dependencies?: Record<string, { version?: string; dependencies?: unknown }> }) => {
      for (const [name, child] of Object.entries(node.dependencies ?? {})) {
        if (name === "@langchain/core" && child.version) versions.add(child.version);
        visit(child as Parameters<typeof visit>[0]);
      }
    };
    visit(JSON.parse(ls.stdout) as Parameters<typeof visit>[0]);
    expect([...versions]).toEqual([USER_DEPENDENCIES["@langchain/core"]]);
    const copies = await run(
      "find",
      [join(project, "node_modules"), "-path", "*/@langchain/core/package.json", "-not", "-path", "*/dist/*"],
      project,
      npmEnv,
    );
    expect(copies.stdout.trim().split("\n")).toEqual([
      join(project, "node_modules", "@langchain", "core", "package.json"),
    ]);
    for (const [name, version] of Object.entries(USER_DEPENDENCIES)) {
      const manifest = JSON.parse(readFileSync(join(project, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      };
      expect(`${name}@${manifest.version}`).toBe(`${name}@${version}`);
    }
    // The installed manifests carry no workspace ranges and no source condition.
    const installed = readFileSync(join(project, "node_modules", "@skillgraph", "langgraph", "package.json"), "utf8");
    expect(installed).not.toContain("workspace:");
    expect(installed).not.toContain("@skillgraph/source");
  });

  it("imports every entry point of every package in plain Node, each with its .d.ts", async () => {
    const specifiers: string[] = [];
    for (const name of readdirSync(join(project, "node_modules", "@skillgraph"))) {
      const dir = join(project, "node_modules", "@skillgraph", name);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        exports: Record<string, string | { types: string; import: string }>;
      };
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (typeof target === "string") continue;
        expect(existsSync(join(dir, target.types)), `${name} ${subpath}: ${target.types}`).toBe(true);
        specifiers.push(subpath === "." ? `@skillgraph/${name}` : `@skillgraph/${name}/${subpath.slice(2)}`);
      }
    }
    expect(specifiers).toEqual(expect.arrayContaining(["@skillgraph/core/search", "@skillgraph/langgraph/store"]));
    const script = `for (const s of ${JSON.stringify(specifiers)}) console.log(s, Object.keys(await import(s)).length);`;
    const result = await run(process.execPath, ["--input-type=module", "-e", script], project, npmEnv);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    const counts = result.stdout.trim().split("\n");
    expect(counts).toHaveLength(specifiers.length);
    // Every entry but the CLI's (a command, no library exports) and core's type-only /hooks exports values.
    for (const line of counts)
      if (!/^@skillgraph\/cli |^@skillgraph\/core\/hooks /.test(line)) expect(line).not.toMatch(/ 0$/);
  });

  it("runs the README quick start against an OpenAI-compatible endpoint", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_1", name: "read_skill", arguments: { name: "release-notes" } }] },
        "## v1.2.0\n- Added the chat command.",
      ],
    });
    writeFileSync(join(project, "quickstart.ts"), quickStartSource());
    const env = {
      PATH: npmEnv.PATH,
      HOME: join(work, "home"),
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: "test-key",
    };
    const result = await run(process.execPath, ["--import", "tsx", "quickstart.ts"], project, env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(result.stdout).toBe("## v1.2.0\n- Added the chat command.");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.systemPrompt).toContain("release-notes");
  });

  it("runs `npx skillgraph` (help, list, and a SQLite session store)", async () => {
    const env = { ...npmEnv, HOME: join(work, "home"), NO_COLOR: "1" };
    const version = await run("npx", ["--no-install", "skillgraph", "--version"], project, env);
    expect({ code: version.code, stdout: version.stdout.trim() }).toEqual({ code: 0, stdout: "0.1.0" });
    const help = await run("npx", ["--no-install", "skillgraph", "--help"], project, env);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/validate/);
    expect(help.stdout).toMatch(/sessions/);
    const list = await run("npx", ["--no-install", "skillgraph", "list", "--skills", "examples/skills"], project, env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("release-notes");
    // A one-shot chat is a session saved in SQLite (better-sqlite3 loaded from the installed project), then listed.
    const chatServer = await startOpenAICompatibleServer({ script: ["Nothing to release yet."] });
    try {
      const chatEnv = { ...env, OPENAI_BASE_URL: chatServer.url, OPENAI_API_KEY: "test-key" };
      const chat = await run(
        "npx",
        [
          "--no-install",
          "skillgraph",
          "chat",
          "--skills",
          "examples/skills",
          "--session",
          "release",
          "-p",
          "Any release notes?",
        ],
        project,
        chatEnv,
      );
      expect(chat.code, chat.stderr).toBe(0);
      expect(chat.stdout).toContain("Nothing to release yet.");
    } finally {
      await chatServer.close();
    }
    expect(existsSync(join(project, ".skillgraph", "sessions.db"))).toBe(true);
    const sessions = await run("npx", ["--no-install", "skillgraph", "sessions", "list", "--json"], project, env);
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(sessions.stdout).toContain('"release"');
  });
});
