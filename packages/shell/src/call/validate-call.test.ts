// The validate stage on the part of the runtime it reads (agentId, artifacts, loadedSkills, requireSkillRead; the
// catalog; the thread's last seen loaded skills), over a real registry and the runtime the options build.
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { oneCallThread } from "../workspace/thread-workspaces.js";
import { callRuntime, scriptInput, shellInput, type CallRuntime } from "./__fixtures__/call-runtime.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import { validateCall } from "./validate-call.js";

let fixture: CallRuntime | undefined;
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** Just what validateCall declares it reads, taken from a runtime built from `options`. */
async function validateView(options: Partial<ShellHookOptions> = {}) {
  fixture = await callRuntime(options);
  const { config, services, threads } = fixture.runtime;
  return {
    config: {
      agentId: config.agentId,
      artifacts: config.artifacts,
      loadedSkills: config.loadedSkills,
      requireSkillRead: config.requireSkillRead,
    },
    services: { catalog: services.catalog },
    threads: { seenLoaded: threads.seenLoaded },
  };
}

const config = { configurable: { thread_id: "t1" } };

describe("validateCall", () => {
  it("resolves a run_skill_script call's skill from the catalog once it was read, with the loaded skills visible", async () => {
    const view = await validateView({ loadedSkills: () => ["report"] });
    const validated = validateCall(view, scriptInput("report", "scripts/build.sh"), config, "t1");
    if ("ok" in validated) throw new Error(validated.message);
    expect(validated.skill).toEqual({
      name: "report",
      dir: fixture!.registry.get("report")!.dir,
      allowedTools: [],
    });
    expect(validated.loaded.map((skill) => skill.name)).toEqual(["report"]);
    expect(validated.span).toEqual({ tool: "run_skill_script", skill: "report" });
    expect(validated.threadId).toBe("t1");
  });

  it("refuses a skill the catalog lacks, and one not read while reading is required", async () => {
    const view = await validateView({ loadedSkills: () => [] });
    expect(validateCall(view, scriptInput("nope", "x.sh"), config, "t1")).toMatchObject({
      ok: false,
      reason: "skill-not-found",
    });
    expect(validateCall(view, scriptInput("report", "scripts/build.sh"), config, "t1")).toMatchObject({
      ok: false,
      reason: "skill-not-read",
    });
    // what `authorize` last saw for the thread does not count while the option answers
    view.threads.seenLoaded.set("t1", ["report"]);
    expect(validateCall(view, scriptInput("report", "scripts/build.sh"), config, "t1")).toMatchObject({
      reason: "skill-not-read",
    });
  });

  it("falls back to what authorize last saw for the thread when nothing else says what is loaded", async () => {
    const view = await validateView();
    expect(validateCall(view, scriptInput("report", "scripts/build.sh"), config, "t1")).toMatchObject({
      reason: "skill-not-read",
    });
    view.threads.seenLoaded.set("t1", ["report"]);
    expect(validateCall(view, scriptInput("report", "scripts/build.sh"), config, "t1")).toMatchObject({
      skill: { name: "report" },
    });
  });

  it("checks every input before anything runs: globs, the primary output, the outputs manifest, the timeout", async () => {
    const view = await validateView();
    const refused = (extra: Parameters<typeof shellInput>[1]) =>
      validateCall(view, shellInput("true", extra), config, "t1");
    expect(refused({ output_globs: ["../escape/*"] })).toMatchObject({ reason: "invalid-glob" });
    expect(refused({ outputs: { primary: "/etc/passwd" } })).toMatchObject({ reason: "invalid-glob" });
    expect(refused({ outputs: { bogus: 1 } as never })).toMatchObject({ reason: "invalid-input" });
    expect(refused({ timeout_seconds: 0 })).toMatchObject({ reason: "invalid-input" });
    expect(refused({ timeout_seconds: Number.NaN })).toMatchObject({ reason: "invalid-input" });
    const ok = validateCall(
      view,
      shellInput("true", { outputs: { Globs: ["*.txt"], primary: "out/a.txt" } as never }),
      config,
      "t1",
    );
    if ("ok" in ok) throw new Error(ok.message);
    expect(ok.outputs.globs).toEqual(["*.txt"]);
    expect(ok.match("a.txt")).toBe(true);
    expect(ok.match("a.csv")).toBe(false);
    expect(ok.primary?.("a.txt")).toBe(true);
  });

  it("says why save_as_artifacts will save nothing: no store, or no thread id; with a store it has one", async () => {
    const view = await validateView();
    const saving = shellInput("true", { outputs: { save_as_artifacts: true } });
    expect(validateCall(view, saving, config, "t1")).toMatchObject({
      artifactsWarning: expect.stringContaining("no artifact store is configured"),
    });
    expect(validateCall(view, saving, {}, oneCallThread())).toMatchObject({
      artifactsWarning: expect.stringContaining("the run has no thread id"),
    });
    await fixture!.dispose();
    const withStore = await validateView({ artifacts: { store: new InMemoryStore() } });
    const validated = validateCall(withStore, saving, config, "t1");
    if ("ok" in validated) throw new Error(validated.message);
    expect(validated.artifacts).toBeDefined();
    expect(validated.artifactsWarning).toBeUndefined();
    // a call without a thread id has no artifact namespace even with a store
    const oneCall = validateCall(withStore, saving, {}, oneCallThread());
    expect(oneCall).toMatchObject({ artifactsWarning: expect.stringContaining("no thread id") });
    expect((oneCall as { artifacts?: unknown }).artifacts).toBeUndefined();
  });
});
