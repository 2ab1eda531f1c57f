// Type-level tests of the main exported functions of each package: what they take and what they give back, checked
// by the compiler (`pnpm test:types`, vitest's typecheck; `pnpm typecheck` checks this file too). A change to a
// public signature fails here before it reaches a user.
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  acquireSessionLease,
  createCheckpointer,
  withPruning,
  type CreateCheckpointerOptions,
  type PruningCheckpointSaver,
  type SessionLease,
} from "@skillgraph/checkpoint";
import {
  createSkillRegistry,
  InvalidOptionsError,
  loadSkill,
  skillsFromDirectory,
  SkillgraphError,
  type DirectorySourceOptions,
  type Skill,
  type SkillRegistry,
  type SkillRegistryOptions,
  type SkillSource,
} from "@skillgraph/core";
import { renderSkillsPrompt, type RenderSkillsPromptOptions } from "@skillgraph/core/prompt";
import { createSearchIndex, type SearchIndex } from "@skillgraph/core/search";
import { createSkillsMiddleware, getLoadedSkills, type SkillsRuntimeOptions } from "@skillgraph/langgraph";
import { createShellHook, createShellMiddleware, type ShellHookOptions } from "@skillgraph/shell";
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { ChatOptions } from "../../packages/cli/src/commands/chat/chat-options.js";
import type { skillRegistryOptionsSchema } from "../../packages/core/src/registry/skill-registry-options.js";

describe("@skillgraph/core", () => {
  it("createSkillRegistry takes its options and resolves to a registry", () => {
    expectTypeOf(createSkillRegistry).parameter(0).toEqualTypeOf<SkillRegistryOptions>();
    expectTypeOf(createSkillRegistry).returns.resolves.toEqualTypeOf<SkillRegistry>();
    expectTypeOf<SkillRegistryOptions["sources"]>().toEqualTypeOf<SkillSource[]>();
    // @ts-expect-error maxSkillMdBytes is a number of bytes
    void createSkillRegistry({ sources: [], maxSkillMdBytes: "1mb" });
  });

  it("the documented options are what the schema accepts, and the schema fills every default", () => {
    expectTypeOf<SkillRegistryOptions>().toExtend<z.input<typeof skillRegistryOptionsSchema>>();
    type Checked = z.output<typeof skillRegistryOptionsSchema>;
    expectTypeOf<Checked["strict"]>().toEqualTypeOf<boolean>();
    expectTypeOf<Checked["maxSkillMdBytes"]>().toEqualTypeOf<number>();
    expectTypeOf<Checked["searchIndex"]>().toEqualTypeOf<"lazy" | "eager">();
  });

  it("sources, loading, search and the prompt", () => {
    expectTypeOf(skillsFromDirectory).toEqualTypeOf<(dir: string, options?: DirectorySourceOptions) => SkillSource>();
    expectTypeOf(loadSkill).returns.resolves.toEqualTypeOf<Skill>();
    expectTypeOf(createSearchIndex).returns.toEqualTypeOf<SearchIndex>();
    expectTypeOf(renderSkillsPrompt).parameter(1).toEqualTypeOf<RenderSkillsPromptOptions | undefined>();
    expectTypeOf<InvalidOptionsError>().toExtend<SkillgraphError>();
  });
});

describe("@skillgraph/langgraph", () => {
  it("createSkillsMiddleware takes the runtime options; getLoadedSkills reads any state", () => {
    expectTypeOf(createSkillsMiddleware).parameter(0).toEqualTypeOf<SkillsRuntimeOptions>();
    expectTypeOf(getLoadedSkills).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf(getLoadedSkills).returns.items.toHaveProperty("name").toEqualTypeOf<string>();
  });
});

describe("@skillgraph/shell", () => {
  it("the hook and the middleware take the same options", () => {
    expectTypeOf(createShellHook).parameter(0).toEqualTypeOf<ShellHookOptions>();
    expectTypeOf(createShellMiddleware).parameter(0).toEqualTypeOf<ShellHookOptions>();
    expectTypeOf<ShellHookOptions>().toHaveProperty("timeoutMs").toEqualTypeOf<number | undefined>();
  });
});

describe("@skillgraph/checkpoint", () => {
  it("a checkpointer from a URL, pruning and leases on any saver", () => {
    expectTypeOf(createCheckpointer).parameters.toEqualTypeOf<[url: string, options?: CreateCheckpointerOptions]>();
    expectTypeOf(createCheckpointer).returns.resolves.toEqualTypeOf<BaseCheckpointSaver>();
    expectTypeOf(withPruning).returns.toEqualTypeOf<PruningCheckpointSaver>();
    expectTypeOf(acquireSessionLease).returns.resolves.toEqualTypeOf<SessionLease>();
  });
});

describe("@skillgraph/cli", () => {
  it("chat's checked options carry every flag of its table, typed by the table's schemas", () => {
    expectTypeOf<ChatOptions["baseURL"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ChatOptions["skills"]>().toEqualTypeOf<string[]>();
    expectTypeOf<ChatOptions["approveAll"]>().toEqualTypeOf<boolean>();
    expectTypeOf<ChatOptions["timeoutMs"]>().toEqualTypeOf<number>();
  });
});
