// The folder layers of every package (scripts/check-layers.mjs): no folder loop at any depth, and each top-level folder
// imports only from folders in lower layers.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

interface ImportEdge {
  from: string;
  to: string;
}
interface LayersModule {
  LAYERS: Record<string, string[][]>;
  findLayerProblems(): string[];
  importEdges(pkg: string): ImportEdge[];
  layerViolations(pkg: string, edges?: ImportEdge[]): string[];
  folderLoops(pkg: string, edges?: ImportEdge[]): string[];
  packageNames(): string[];
}

const layers = (await import(pathToFileURL(join(REPO_ROOT, "scripts", "check-layers.mjs")).href)) as LayersModule;

describe("folder layers", () => {
  it("every package has layers, and no import goes sideways, up a layer or round a folder loop", () => {
    expect(layers.packageNames().sort()).toEqual(Object.keys(layers.LAYERS).sort());
    expect(layers.findLayerProblems()).toEqual([]);
  });

  it("reads the imports of the real sources (the shell's call pipeline imports the runtime)", () => {
    const edges = layers.importEdges("shell");
    expect(edges.some((edge) => edge.from.startsWith("call/") && edge.to.startsWith("runtime/"))).toBe(true);
  });

  it("reports an import up a layer, one within a layer, and a folder no layer names", () => {
    const edges = [
      { from: "policy/plan-command.ts", to: "call/run-call.ts" },
      { from: "artifacts/a.ts", to: "environments/b.ts" },
      { from: "nowhere/c.ts", to: "internal/core.ts" },
      { from: "call/run-call.ts", to: "policy/plan-command.ts" },
    ];
    expect(layers.layerViolations("shell", edges)).toEqual([
      "packages/shell/src/nowhere is in no layer of scripts/check-layers.mjs",
      "packages/shell/src/policy/plan-command.ts imports call/run-call.ts (call/ is in a higher layer than policy/)",
      "packages/shell/src/artifacts/a.ts imports environments/b.ts (environments/ is in the same layer as artifacts/)",
    ]);
  });

  it("finds loops between sibling folders at any depth, with the files of a folder as one sibling", () => {
    const edges = [
      { from: "tools/shell/index.ts", to: "tools/shell-session/index.ts" },
      { from: "tools/shell-session/index.ts", to: "tools/command-input-schema.ts" },
      { from: "tools/command-input-schema.ts", to: "tools/shell/fields.ts" },
      { from: "call/a.ts", to: "policy/b.ts" },
    ];
    expect(layers.folderLoops("shell", edges)).toEqual(["packages/shell/src/tools/: . ↔ shell ↔ shell-session"]);
  });
});
