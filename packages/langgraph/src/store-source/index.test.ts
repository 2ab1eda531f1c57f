import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import {
  createSkillRegistry,
  SkillgraphError,
  SkillLoadError,
  SkillPathError,
  skillsFromCode,
  skillsFromDirectory,
} from "@skillgraph/core";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { AIMessage } from "@langchain/core/messages";
import { SkillDriftError } from "../internal/core.js";
import { createSkillsEngine } from "../engine/skills-engine.js";
import { resolveOptions } from "../options/resolve-options.js";
import { emptyAgentSkillsState, applyAgentSkillsUpdate } from "../state/skills-state.js";
import { publishSkillsToStore, skillsFromStore } from "./index.js";
import { prepareModelCall } from "../engine/state-events.js";

/** An InMemoryStore that counts item reads, to prove what a reload fetches. */
class CountingStore extends InMemoryStore {
  gets: string[] = [];
  override async get(namespace: string[], key: string) {
    this.gets.push(`${namespace.join("/")}:${key}`);
    return super.get(namespace, key);
  }
}

function skillsFolder() {
  return writeTree({
    "pdf/SKILL.md": skillMd("pdf", "Fill in PDF forms."),
    "pdf/references/forms.md": "# Forms\nUse the form tool.",
    "pdf/assets/logo.png": "\u0000PNG binary",
    "sql-review/SKILL.md": skillMd("sql-review", "Review SQL for slow queries."),
  });
}

describe("skills in a LangGraph BaseStore", () => {
  it("publishes a folder and serves levels 1-3 from the store, with the same checks as a folder", async () => {
    const store = new InMemoryStore();
    const report = await publishSkillsToStore(store, skillsFolder());
    expect(report.published).toEqual(["pdf", "sql-review"]);
    expect(report.skipped).toEqual([{ skill: "pdf", path: "assets/logo.png", reason: "binary" }]);

    const registry = await createSkillRegistry({ sources: [skillsFromStore(store)] });
    expect(registry.list().map((skill) => [skill.name, skill.origin])).toEqual([
      ["pdf", { sourceId: "store:skillgraph/skills", layer: "project", kind: "store" }],
      ["sql-review", { sourceId: "store:skillgraph/skills", layer: "project", kind: "store" }],
    ]);
    expect(await registry.readBody("pdf")).toContain("Instructions for pdf.");
    expect(await registry.listFiles("pdf")).toEqual([{ path: "references/forms.md", size: 26 }]);
    expect((await registry.readFile("pdf", "references/forms.md")).content).toContain("Use the form tool.");
    await expect(registry.readFile("pdf", "references/forms.md", { maxBytes: 10 })).rejects.toSatisfy(
      (error) => SkillPathError.isInstance(error) && (error as SkillPathError).reason === "too-large",
    );
    await expect(registry.readFile("pdf", "../sql-review/SKILL.md")).rejects.toSatisfy(
      (error) => SkillPathError.isInstance(error) && (error as SkillPathError).reason === "traversal",
    );
    await expect(registry.readFile("pdf", "assets/logo.png")).rejects.toSatisfy(
      (error) => SkillPathError.isInstance(error) && (error as SkillPathError).reason === "not-found",
    );
    expect(registry.search("fill a pdf form")[0]?.name).toBe("pdf");
  });

  it("detects changes from the manifest alone and re-reads only the changed skill", async () => {
    const store = new CountingStore();
    const folder = skillsFolder();
    await publishSkillsToStore(store, folder);
    const registry = await createSkillRegistry({ sources: [skillsFromStore(store)] });
    store.gets = [];
    expect(await registry.reload()).toMatchObject({ changed: [], reread: 0, reused: 2 });
    expect(store.gets).toEqual(["skillgraph/skills:manifest"]);

    writeFileSync(join(folder, "sql-review/SKILL.md"), skillMd("sql-review", "Review SQL, now with indexes."));
    await publishSkillsToStore(store, folder);
    store.gets = [];
    expect(await registry.reload()).toMatchObject({ changed: ["sql-review"], reread: 1, reused: 1 });
    expect(store.gets).toEqual(["skillgraph/skills:manifest", "skillgraph/skills/skill-md:sql-review"]);
    expect(registry.get("sql-review")?.description).toBe("Review SQL, now with indexes.");
  });

  it("keeps the registry's precedence: an explicit source beats the store's project layer", async () => {
    const store = new InMemoryStore();
    await publishSkillsToStore(store, skillsFolder());
    const registry = await createSkillRegistry({
      sources: [skillsFromStore(store), skillsFromCode([{ name: "pdf", description: "Local pdf.", body: "x" }])],
    });
    expect(registry.get("pdf")?.description).toBe("Local pdf.");
    expect(registry.shadowed().map((shadow) => shadow.name)).toEqual(["pdf"]);
  });

  it("refuses to publish an invalid skill and writes nothing", async () => {
    const store = new InMemoryStore();
    const folder = writeTree({
      "good/SKILL.md": skillMd("good", "Fine."),
      "bad/SKILL.md": skillMd("Not_Valid", "Bad name."),
    });
    await expect(publishSkillsToStore(store, folder)).rejects.toSatisfy(
      (error) => SkillgraphError.isInstance(error) && /nothing published/.test((error as Error).message),
    );
    expect(await store.get(["skillgraph", "skills"], "manifest")).toBeNull();
  });

  it("reports a malformed manifest as a source problem, never a crash", async () => {
    const store = new InMemoryStore();
    await store.put(["skillgraph", "skills"], "manifest", {
      format: "skillgraph-store-manifest",
      version: "x",
      skills: { "../etc": { version: "1", files: [] } },
    });
    const registry = await createSkillRegistry({
      sources: [skillsFromStore(store), skillsFromDirectory(writeTree({ "a/SKILL.md": skillMd("a", "A.") }))],
    });
    expect(registry.list().map((skill) => skill.name)).toEqual(["a"]);
    expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toEqual(["source-failed"]);
  });

  it("a malformed manifest met by publishSkillsToStore is a typed store-manifest-invalid error naming the problem", async () => {
    const store = new InMemoryStore();
    await store.put(["skillgraph", "skills"], "manifest", { format: "something-else", version: "x", skills: {} });
    const folder = writeTree({ "a/SKILL.md": skillMd("a", "A.") });
    await expect(publishSkillsToStore(store, folder)).rejects.toSatisfy(
      (error) =>
        SkillgraphError.isInstance(error) &&
        error.code === "store-manifest-invalid" &&
        /store:skillgraph\/skills is malformed: format is not/.test(error.message),
    );
  });

  it("a SKILL.md item gone from the store is refused as skill-md-missing (scan) and a typed error (body read)", async () => {
    const store = new InMemoryStore();
    await publishSkillsToStore(store, skillsFolder());
    const registry = await createSkillRegistry({ sources: [skillsFromStore(store)] });
    expect(registry.list().map((skill) => skill.name)).toEqual(["pdf", "sql-review"]);
    await store.delete(["skillgraph", "skills", "skill-md"], "pdf");
    await expect(registry.readBody("pdf")).rejects.toSatisfy(
      (error) => SkillLoadError.isInstance(error) && error.code === "skill-md-missing" && /pdf/.test(error.message),
    );
    const fresh = await createSkillRegistry({ sources: [skillsFromStore(store)] });
    expect(fresh.list().map((skill) => skill.name)).toEqual(["sql-review"]);
    expect(fresh.diagnostics().map((diagnostic) => [diagnostic.code, diagnostic.path])).toEqual([
      ["skill-md-missing", "store:skillgraph/skills/pdf"],
    ]);
  });

  it("refuses a SKILL.md over the registry's size cap", async () => {
    const store = new InMemoryStore();
    await publishSkillsToStore(store, writeTree({ "big/SKILL.md": skillMd("big", "Big.", "x".repeat(5000)) }));
    const registry = await createSkillRegistry({ sources: [skillsFromStore(store)], maxSkillMdBytes: 1000 });
    expect(registry.list()).toEqual([]);
    expect(registry.diagnostics().map((diagnostic) => diagnostic.code)).toEqual(["file-too-large"]);
  });

  it("a skill republished while an agent has it loaded triggers the drift policy on the next request", async () => {
    const store = new InMemoryStore();
    const folder = skillsFolder();
    await publishSkillsToStore(store, folder);
    const registry = await createSkillRegistry({ sources: [skillsFromStore(store)] });
    const engine = createSkillsEngine(resolveOptions({ skills: registry, onDrift: "fail" }));
    const state = applyAgentSkillsUpdate(emptyAgentSkillsState(), {
      events: [{ type: "load", name: "pdf", mode: "session", hash: registry.get("pdf")!.hash, seq: 1 }],
    });
    expect(() => prepareModelCall(state, [new AIMessage("x")], registry, engine.options)).not.toThrow();

    writeFileSync(join(folder, "pdf/SKILL.md"), skillMd("pdf", "Fill in PDF forms, v2."));
    await publishSkillsToStore(store, folder);
    await registry.reload();
    expect(() => prepareModelCall(state, [new AIMessage("x")], registry, engine.options)).toThrow(SkillDriftError);
  });
});
