#!/usr/bin/env node
// The folder layers of `packages/*/src` (tests and fixtures aside). Each package's top-level folders are stacked in the
// order below, lowest first: a file may import from its own folder or from a folder in a LOWER layer, never from a
// folder in its own layer or above (`.` stands for the files directly in `src/`). Besides, no folder at any depth is in
// an import loop with its sibling folders (files directly in a folder count as one sibling). Both are checked on the
// folder graph built from every relative import (`import`, `import type`, `export … from`, `import()`).
// Usage: node scripts/check-layers.mjs [--json]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(import.meta.url)("typescript");

/** Each package's folders, lowest layer first; folders in one layer do not import each other. */
export const LAYERS = {
  core: [
    ["internal", "errors", "safe-fs"],
    ["search", "load-state", "skill"],
    ["agent-file", "hooks", "prompt", "sources"],
    ["snapshot"],
    ["registry"],
    ["."],
  ],
  langgraph: [
    ["internal", "events", "history", "repair"],
    ["hooks", "state", "store-source"],
    ["options"],
    ["tools"],
    ["engine"],
    ["interceptor", "middleware"],
    ["."],
  ],
  // command → policy → executor / workspace / environments → runtime (configuration, services, per-thread state) →
  // call (the pipeline of one command call) → tools → hook / middleware.
  shell: [
    ["internal", "output"],
    ["errors"],
    ["command"],
    ["policy"],
    ["artifacts", "environments", "repository"],
    ["executor", "requirements"],
    ["workspace"],
    ["sessions"],
    ["options"],
    ["runtime"],
    ["call"],
    ["tools"],
    ["hook"],
    ["middleware"],
    ["."],
  ],
  checkpoint: [
    ["internal", "saver", "state"],
    ["errors"],
    ["database"],
    ["turn"],
    ["store", "create-checkpointer"],
    ["session", "lease", "pruning"],
    ["."],
  ],
  cli: [["output"], ["io"], ["stores"], ["commands"], ["."], ["docs"]],
};

/** The source files of a package: `.ts` under `src/`, without tests and `__fixtures__`. */
function sourceFiles(src) {
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== "__fixtures__" && entry !== "node_modules") walk(path);
      } else if (entry.endsWith(".ts") && !entry.endsWith(".test.ts") && !entry.endsWith(".d.ts")) files.push(path);
    }
  };
  walk(src);
  return files;
}

/** Every relative import between a package's source files, as `{ from, to }` paths relative to `src/` (`/`-separated). */
export function importEdges(pkg) {
  const src = join(root, "packages", pkg, "src");
  const edges = [];
  for (const file of sourceFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), fileName).replace(/\.js$/, ".ts");
      edges.push({ from: relative(src, file).split(sep).join("/"), to: relative(src, target).split(sep).join("/") });
    }
  }
  return edges;
}

/** The top-level folder of a path relative to `src/` (`.` for a file directly in `src/`). */
const topFolder = (path) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : ".");

/** Imports that go sideways or up the declared layers, and folders the layers do not name. */
export function layerViolations(pkg, edges = importEdges(pkg)) {
  const layers = LAYERS[pkg] ?? [];
  const layerOf = new Map(layers.flatMap((folders, index) => folders.map((folder) => [folder, index])));
  const problems = [];
  for (const folder of new Set(edges.flatMap((edge) => [topFolder(edge.from), topFolder(edge.to)])))
    if (!layerOf.has(folder)) problems.push(`packages/${pkg}/src/${folder} is in no layer of scripts/check-layers.mjs`);
  for (const { from, to } of edges) {
    const [a, b] = [topFolder(from), topFolder(to)];
    if (a === b || !layerOf.has(a) || !layerOf.has(b) || layerOf.get(b) < layerOf.get(a)) continue;
    const where = layerOf.get(b) === layerOf.get(a) ? "the same layer as" : "a higher layer than";
    problems.push(`packages/${pkg}/src/${from} imports ${to} (${b}/ is in ${where} ${a}/)`);
  }
  return problems;
}

/** Loops between sibling folders at any depth: for each folder, the strongly connected groups of its children. */
export function folderLoops(pkg, edges = importEdges(pkg)) {
  const graphs = new Map(); // parent folder → (child → set of children it imports)
  for (const { from, to } of edges) {
    const a = from.split("/");
    const b = to.split("/");
    let depth = 0;
    while (depth < a.length - 1 && depth < b.length - 1 && a[depth] === b[depth]) depth++;
    // The first differing segment under the common parent; a file directly in that parent counts as ".".
    const childA = depth < a.length - 1 ? a[depth] : ".";
    const childB = depth < b.length - 1 ? b[depth] : ".";
    if (childA === childB) continue;
    const parent = a.slice(0, depth).join("/") || ".";
    if (!graphs.has(parent)) graphs.set(parent, new Map());
    const graph = graphs.get(parent);
    if (!graph.has(childA)) graph.set(childA, new Set());
    graph.get(childA).add(childB);
  }
  const loops = [];
  for (const [parent, graph] of graphs)
    for (const group of stronglyConnected(graph))
      loops.push(`packages/${pkg}/src/${parent === "." ? "" : `${parent}/`}: ${group.sort().join(" ↔ ")}`);
  return loops;
}

/** Tarjan's strongly connected components with more than one node. */
function stronglyConnected(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** Every package under `packages/` with a `src/` folder. */
export function packageNames() {
  return readdirSync(join(root, "packages")).filter((name) => {
    try {
      return statSync(join(root, "packages", name, "src")).isDirectory();
    } catch {
      return false;
    }
  });
}

/** Folder loops and layer violations of every package. */
export function findLayerProblems() {
  const problems = [];
  for (const pkg of packageNames()) {
    const edges = importEdges(pkg);
    if (!LAYERS[pkg]) problems.push(`packages/${pkg} has no layers in scripts/check-layers.mjs`);
    problems.push(...folderLoops(pkg, edges).map((loop) => `folder loop in ${loop}`), ...layerViolations(pkg, edges));
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = findLayerProblems();
  if (process.argv.includes("--json")) console.log(JSON.stringify({ problems }));
  else {
    console.log(`folder layers: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    for (const problem of problems) console.log(`  ${problem}`);
  }
  process.exit(problems.length > 0 ? 1 : 0);
}
