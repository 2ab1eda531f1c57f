// Request building: the rewritten model request (system text, tools, messages) with loaded bodies, docs and restored
// skills materialised.
import { unloadReason } from "./unload-reason.js";
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { escapeHtml, type SkillCatalog, type SkillMetadata } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions, ToolExposure } from "../options/skills-runtime-options.js";
import type { LoadedSkillEntry } from "../internal/core.js";
import { repairDanglingToolCalls } from "../repair/repair-dangling-tool-calls.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import { CALL_SKILL_TOOL } from "../tools/call-skill-tool/index.js";
import type { SkillBodyArtifact, SkillFileArtifact } from "../tools/skills-tool-context.js";
import { SKILLS_TOOL_NAMES, type EngineContext, type SkillToolIndex, type VersionCache } from "./catalog-cache.js";
import { loadedMetadata } from "./loaded-metadata.js";
import { toolRestriction } from "./tool-gate.js";

/** The rewritten model request. */
export interface BuiltModelRequest {
  systemText: string;
  /** The text appended to the caller's system text (`systemText` is the two joined by a blank line; "" when none). */
  skillsText: string;
  messages: BaseMessage[];
  tools: StructuredToolInterface[];
  /** Cancellation answers added for dangling tool calls (persist them to state; stable ids). */
  repairs: ToolMessage[];
  /** Loaded skills whose read_skill result had left the history; their bodies were restored in the system text. */
  restored: string[];
}

/** What a model request rewrite starts from. */
export interface ModelRequestInput {
  state: AgentSkillsState;
  catalog: SkillCatalog;
  systemText: string;
  messages: readonly BaseMessage[];
  tools: readonly StructuredToolInterface[];
  threadId?: string;
}

/**
 * Rewrites a model request: skills prompt appended to the system text, tools of loaded skills added, dangling tool
 * calls answered, loaded bodies materialised, and bodies whose read_skill result left the history restored at the end
 * of the system text (only then: the normal request's prefix does not change).
 */
export async function buildModelRequest(context: EngineContext, input: ModelRequestInput): Promise<BuiltModelRequest> {
  const { state, catalog } = input;
  const cache = context.versions.cacheFor(catalog);
  const loaded = loadedMetadata(state, catalog);
  const tools = requestTools(context, { inputTools: input.tools, state, loaded, cache, threadId: input.threadId });
  // A sound history (the usual case) is known from the messages appended since the last call, not rescanned.
  const facts = context.requestHistory.of(input.messages);
  const repaired = facts.wellFormed
    ? { messages: input.messages as BaseMessage[], repairs: [] }
    : repairDanglingToolCalls(input.messages);
  // bodies: without `once` skills already shown (their tools, above, stay until the turn ends)
  const shown = withoutConsumedSkills(state);
  const shownLoaded = loaded.filter((skill) => shown.load.loaded[skill.name] !== undefined);
  const scope: RequestScope = { context, state: shown, catalog, index: cache.index };
  // the positions of the results to fill in are known from the scan when the history is sent as it is
  const candidates = facts.wellFormed ? facts.skillResults.slice() : undefined;
  const materialised = await materialiseMessages(scope, repaired.messages, candidates);
  let skillsText = cache.section;
  if (context.options.bodyPlacement === "system-prompt" && shownLoaded.length > 0)
    skillsText = joinText(skillsText, await loadedSkillsSection(scope, shownLoaded, materialised.selectedDocs));
  const restored = context.options.bodyPlacement === "tool-result" ? materialised.missing : [];
  if (restored.length > 0) skillsText = joinText(skillsText, await restoredSkillsSection(scope, restored));
  const systemText = joinText(input.systemText, skillsText);
  return { systemText, skillsText, messages: materialised.messages, tools, repairs: repaired.repairs, restored };
}

/** The state with consumed `once` skills left out of `loaded` (what bodies are shown for). */
function withoutConsumedSkills(state: AgentSkillsState): AgentSkillsState {
  const entries = Object.entries(state.load.loaded);
  if (!entries.some(([, entry]) => entry.consumed)) return state;
  const loaded = Object.fromEntries(entries.filter(([, entry]) => !entry.consumed));
  return { ...state, load: { ...state.load, loaded } };
}

function joinText(base: string, extra: string): string {
  if (!extra) return base;
  return base ? `${base}\n\n${extra}` : extra;
}

/** What each step of one request rewrite reads: the engine, the state shown, the catalog and its tool index. */
export interface RequestScope {
  context: EngineContext;
  state: AgentSkillsState;
  catalog: SkillCatalog;
  index: SkillToolIndex;
}

/** The request's messages, and the loaded skills none of whose read_skill results is among them any more. */
export interface MaterialisedMessages {
  messages: BaseMessage[];
  /** Loaded skills whose read_skill result left the history (trimmed, summarised, removed): their bodies must be restored. */
  missing: string[];
  /** Per loaded skill with a read_skill result: the docs its latest result selected that are still selected. */
  selectedDocs: Map<string, string[]>;
}

/**
 * Rewrites this agent's read_skill and read_skill_file results: the latest read_skill result of each loaded skill
 * gets the body (tool-result placement) and its selected reference files, earlier results of the same skill point to
 * it, file results are filled while their skill is loaded and the file still in its docs, and anything of an
 * unloaded skill becomes a short note. A request with no such results is returned as is. `candidates`, when given,
 * are the only positions that can hold such results (see HistoryFacts.skillResults): the others are not looked at.
 */
export async function materialiseMessages(
  scope: RequestScope,
  messages: readonly BaseMessage[],
  candidates?: readonly number[],
): Promise<MaterialisedMessages> {
  const { context, state, catalog, index } = scope;
  const { agentId } = context;
  const latest = new Map<string, number>();
  let files = 0;
  const positions = candidates ?? messages.keys();
  for (const position of positions) {
    const message = messages[position]!;
    const artifact = bodyArtifact(message);
    if (artifact && artifact.agentId === agentId) latest.set(artifact.skill, position);
    else if (fileArtifact(message)?.agentId === agentId) files++;
  }
  const missing = Object.keys(state.load.loaded)
    .filter((name) => !latest.has(name))
    .sort();
  const selectedDocs = new Map<string, string[]>();
  for (const [skill, position] of latest) {
    const entry = state.load.loaded[skill];
    const chosen = bodyArtifact(messages[position]!)!.docs ?? [];
    if (entry)
      selectedDocs.set(
        skill,
        chosen.filter((path) => entry.docs.includes(path)),
      );
  }
  if (latest.size === 0 && files === 0) return { messages: messages as BaseMessage[], missing, selectedDocs };
  const out: BaseMessage[] = messages.slice();
  for (const position of candidates ?? messages.keys()) {
    const message = messages[position]!;
    const body = bodyArtifact(message);
    const file = body ? undefined : fileArtifact(message);
    const skill = body?.skill ?? file?.skill;
    if (!skill || (body ?? file)!.agentId !== agentId) continue;
    const tool = message as ToolMessage;
    const entry = state.load.loaded[skill];
    const content = file
      ? await fileResultContent(scope, skill, file.path, selectedDocs)
      : await bodyResultContent(
          context,
          {
            catalog,
            index,
            skill,
            entry,
            tool,
            latest: latest.get(skill) === position,
            loadedCount: Object.keys(state.load.loaded).length,
          },
          body!.hash,
          selectedDocs,
        );
    out[position] = rewrittenResult(tool, content);
  }
  return { messages: out, missing, selectedDocs };
}

/**
 * Rewritten results by the stored result they stand for, with the content they were given: the same content on the
 * next call gives the same message (not a new one per model call); another content (a reload, a skill unloaded, files
 * selected) builds a new one.
 */
const rewritten = new WeakMap<ToolMessage, { content: string; message: ToolMessage }>();

function rewrittenResult(tool: ToolMessage, content: string): ToolMessage {
  const cached = rewritten.get(tool);
  if (cached?.content === content) return cached.message;
  const message = new ToolMessage({
    content,
    tool_call_id: tool.tool_call_id,
    name: tool.name,
    id: tool.id,
    artifact: tool.artifact,
    status: tool.status,
  });
  rewritten.set(tool, { content, message });
  return message;
}

/** What a read_skill_file result shows now: the file, a pointer to the read_skill result that shows it, or a note. */
async function fileResultContent(
  { context, state, catalog }: RequestScope,
  skill: string,
  path: string,
  selectedDocs: ReadonlyMap<string, string[]>,
): Promise<string> {
  const { options, bodies } = context;
  const entry = state.load.loaded[skill];
  if (!entry || !entry.docs.includes(path)) {
    return `[File '${path}' of skill '${skill}' omitted: the skill is no longer loaded or the file left its selection. Call read_skill_file again if you need it.]`;
  }
  if (options.bodyPlacement === "tool-result" && selectedDocs.get(skill)?.includes(path)) {
    return `[File '${path}' of skill '${skill}': shown with the skill's instructions in its latest read_skill result.]`;
  }
  return bodies.file(catalog, skill, path, options.maxResourceBytes);
}

/** One read_skill result being rewritten: its skill, whether it is that skill's latest result, and the lookups. */
interface BodyResult {
  catalog: SkillCatalog;
  index: SkillToolIndex;
  skill: string;
  entry: LoadedSkillEntry | undefined;
  tool: ToolMessage;
  latest: boolean;
  /** How many skills the agent has loaded (says why a skill was evicted). */
  loadedCount: number;
}

/** What a read_skill result shows now: the body with its selected files (latest result), a pointer, or a note. */
async function bodyResultContent(
  context: EngineContext,
  { catalog, index, skill, entry, tool, latest, loadedCount }: BodyResult,
  recordedHash: string,
  selectedDocs: ReadonlyMap<string, string[]>,
): Promise<string> {
  const { options } = context;
  if (entry && !latest && options.bodyPlacement !== "system-prompt") {
    return `[Skill '${skill}' instructions: see the later read_skill result of this skill.]`;
  }
  if (!entry) {
    const why = unloadReason({
      inCatalog: catalog.has(skill),
      mode: options.loadModes[skill] ?? options.loadMode,
      loadedCount,
      maxLoadedSkills: options.maxLoadedSkills,
    });
    return `[Skill '${skill}' instructions omitted: ${why}. Call read_skill with {"name": "${skill}"} again if you need them.]`;
  }
  if (options.bodyPlacement === "system-prompt") return String(tool.content);
  const { body: text, changed } = await loadedSkillBody(context, catalog, skill, recordedHash);
  const docs = await docBlocks(context, catalog, skill, selectedDocs.get(skill) ?? []);
  const note = dispatcherNote(options.toolExposure, skill, index);
  const parts = [text, changed, docs, tool.content, note] as const;
  const cached = filled.get(tool);
  if (cached && cached.parts.every((part, at) => part === parts[at])) return cached.content;
  const content = `${skillBlock(skill, text, changed)}${docs}\n\n${String(tool.content)}${note}`;
  filled.set(tool, { parts, content });
  return content;
}

/**
 * The filled content of a stored read_skill result with the parts it was built from: the same parts (the body from
 * the body cache, the same docs and note) give the same string object on the next call, so the result is not joined
 * again per model call and {@link rewrittenResult} finds it by identity instead of comparing the body's characters.
 */
const filled = new WeakMap<ToolMessage, { parts: readonly unknown[]; content: string }>();

/** The selected reference files of a skill as blocks to append to its body ("" when none). */
export async function docBlocks(
  context: EngineContext,
  catalog: SkillCatalog,
  skill: string,
  paths: readonly string[],
): Promise<string> {
  let text = "";
  for (const path of paths)
    text += `\n${fileBlock(skill, path, await context.bodies.file(catalog, skill, path, context.options.maxResourceBytes))}`;
  return text;
}

/** The `<loaded_skills>` system-prompt section: loaded bodies in load order (bodyPlacement "system-prompt"). */
export async function loadedSkillsSection(
  { context, state, catalog, index }: RequestScope,
  loaded: readonly SkillMetadata[],
  selectedDocs: ReadonlyMap<string, readonly string[]>,
): Promise<string> {
  const entries = loaded
    .map((skill) => state.load.loaded[skill.name]!)
    .sort((a, b) => a.loadedSeq - b.loadedSeq || (a.name < b.name ? -1 : 1));
  const { options } = context;
  const parts: string[] = [];
  for (const entry of entries) {
    const { body, changed } = await loadedSkillBody(context, catalog, entry.name, entry.hash);
    const docs = await docBlocks(context, catalog, entry.name, selectedDocs.get(entry.name) ?? []);
    parts.push(skillBlock(entry.name, body, changed) + docs + dispatcherNote(options.toolExposure, entry.name, index));
  }
  return `<loaded_skills>\n${parts.join("\n")}\n</loaded_skills>`;
}

/**
 * The `<restored_skills>` system-prompt section: bodies of loaded skills whose read_skill result is no longer in the
 * request (history trimmed, summarised or removed), with every file in their docs, by name, so the bytes are the
 * same on every request.
 */
export async function restoredSkillsSection(
  { context, state, catalog, index }: RequestScope,
  names: readonly string[],
): Promise<string> {
  const { options } = context;
  const parts: string[] = [];
  for (const name of names) {
    const entry = state.load.loaded[name]!;
    const { body, changed } = await loadedSkillBody(context, catalog, name, entry.hash);
    const docs = await docBlocks(context, catalog, name, entry.docs);
    parts.push(skillBlock(name, body, changed) + docs + dispatcherNote(options.toolExposure, name, index));
  }
  const intro =
    "These skills are still loaded, but their read_skill results are no longer in the conversation (history trimmed or summarised). Their instructions:";
  return `<restored_skills>\n${intro}\n${parts.join("\n")}\n</restored_skills>`;
}

/** The body to show for a loaded skill under the drift policy (`keep`: the recorded version when cached), and whether it changed. */
export async function loadedSkillBody(
  { bodies, options }: EngineContext,
  catalog: SkillCatalog,
  name: string,
  recordedHash: string,
): Promise<{ body: string; changed: boolean }> {
  const { onDrift } = options;
  const current = catalog.get(name);
  if (onDrift === "keep") {
    const kept = bodies.peek(name, recordedHash);
    if (kept !== undefined) return { body: kept, changed: false };
  }
  const hash = current?.hash ?? recordedHash;
  return { body: await bodies.current(catalog, name, hash), changed: hash !== recordedHash && onDrift === "reload" };
}

/** The tools of a rewritten request: the caller's tools minus engine-owned (and, in dynamic mode, restricted) ones, then skills tools, then exposed skill and hook tools. */
export function requestTools(
  context: EngineContext,
  { inputTools, state, loaded, cache, threadId }: RequestToolsInput,
): StructuredToolInterface[] {
  const { options } = context;
  const restricted = toolRestriction(options.restrictTools, loaded, cache.index);
  const own = ownToolNames(context, cache);
  const userTools = inputTools.filter(
    (tool) =>
      !own.has(tool.name) &&
      (!restricted || restricted.has(tool.name.toLowerCase()) || options.toolExposure !== "dynamic"),
  );
  const exposed = exposedTools(options, { state, loaded, index: cache.index, threadId });
  return [...userTools, ...cache.requestSkillsTools, ...exposed];
}

/** The tool names the engine owns for one catalog version (skills, skill-owned and hook tools), built once per version cache. */
const ownNames = new WeakMap<VersionCache, Set<string>>();

function ownToolNames(context: EngineContext, cache: VersionCache): ReadonlySet<string> {
  let own = ownNames.get(cache);
  if (!own) {
    own = new Set([...SKILLS_TOOL_NAMES, ...cache.index.owners.keys(), ...context.hookTools.keys()]);
    ownNames.set(cache, own);
  }
  return own;
}

/** What {@link requestTools} picks from: the caller's tools, the state, the loaded skills, the version's cache, the thread. */
export interface RequestToolsInput {
  inputTools: readonly StructuredToolInterface[];
  state: AgentSkillsState;
  loaded: readonly SkillMetadata[];
  cache: VersionCache;
  threadId: string | undefined;
}

/** Skill-owned and hook tools shown to the model under the tool exposure mode (static: all, dispatcher: hooks only, dynamic: unlocked). */
export function exposedTools(
  options: ResolvedSkillsRuntimeOptions,
  {
    state,
    loaded,
    index,
    threadId,
  }: Pick<RequestToolsInput, "state" | "loaded" | "threadId"> & { index: SkillToolIndex },
): StructuredToolInterface[] {
  const hookTools = options.hooks.flatMap((hook) => {
    if (options.toolExposure !== "dynamic") return hook.tools;
    const visible = new Set(hook.visibleTools({ loadedSkills: loaded, threadId }));
    return hook.tools.filter((tool) => visible.has(tool.name));
  });
  if (options.toolExposure === "static") return [...index.allOwned, ...hookTools];
  if (options.toolExposure === "dispatcher") return hookTools;
  const unlocked = new Map<string, StructuredToolInterface>();
  for (const name of Object.keys(state.load.loaded))
    for (const tool of index.owned.get(name) ?? []) unlocked.set(tool.name, tool);
  return [...[...unlocked.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), ...hookTools];
}

/** In dispatcher mode, the note after a skill body listing its tools and their JSON schemas; otherwise "". */
export function dispatcherNote(toolExposure: ToolExposure, skill: string, index: SkillToolIndex): string {
  if (toolExposure !== "dispatcher") return "";
  const tools = index.owned.get(skill) ?? [];
  if (tools.length === 0) return "";
  const lines = tools.map(
    (tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON schema): ${JSON.stringify(schemaOf(tool))}`,
  );
  return `\nCall these with ${CALL_SKILL_TOOL}({"tool": "<name>", "arguments": {...}}):\n${lines.join("\n")}`;
}

function schemaOf(tool: StructuredToolInterface): unknown {
  try {
    return toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]);
  } catch {
    return {};
  }
}

/** The skill-body marker of a stored read_skill result, if `message` is one. */
export function bodyArtifact(message: BaseMessage): SkillBodyArtifact | undefined {
  if (message.getType() !== "tool") return undefined;
  const artifact = (message as ToolMessage).artifact as { skillgraph?: SkillBodyArtifact } | undefined;
  return artifact?.skillgraph?.kind === "skill-body" ? artifact.skillgraph : undefined;
}

/** How a skill body is shown to the model, with a note when it changed since it was loaded. */
export function skillBlock(name: string, body: string, changed: boolean): string {
  const note = changed
    ? `Note: skill '${name}' changed since it was loaded; these are its current instructions.\n`
    : "";
  return `<skill_content name="${escapeHtml(name)}">\n${note}${body.trim()}\n</skill_content>`;
}

/** The skill-file marker of a stored read_skill_file result, if `message` is one. */
export function fileArtifact(message: BaseMessage): SkillFileArtifact | undefined {
  if (message.getType() !== "tool") return undefined;
  const artifact = (message as ToolMessage).artifact as { skillgraph?: SkillFileArtifact } | undefined;
  return artifact?.skillgraph?.kind === "skill-file" ? artifact.skillgraph : undefined;
}

/** How a selected reference file is shown with its skill's instructions. */
export function fileBlock(skill: string, path: string, content: string): string {
  // Attribute values escaped with core's one escaping: a file named `a" x="y` cannot add attributes or close the tag.
  return `<skill_file skill="${escapeHtml(skill)}" path="${escapeHtml(path)}">\n${content.trimEnd()}\n</skill_file>`;
}
