// tama's memory tools (`tama_mem_set`, `tama_mem_get`, `tama_mem_append`): a key-value memory agents of one thread
// share, kept in the graph's LangGraph store when it has one (so it outlives the process with the store), else in
// this process. A skill unlocks them like any tool, by naming them in `tools:` / `allowed-tools`.
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { getStore, type BaseStore, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";

/** Longest value one key keeps (a longer `set` or `append` is refused, saying so). */
export const MEMORY_MAX_VALUE_CHARS = 256 * 1024;

/** Where a thread's memory lives in a store. */
const NAMESPACE = ["skillgraph", "memory"];

/** Options of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  /** The store to keep memory in. @default the graph's store (`compile({ store })`), else memory of this process */
  store?: BaseStore;
  /** Tool names: tama's by default. */
  names?: { set?: string; get?: string; append?: string };
}

/** One thread's memory in this process, when there is no store (per tool set, per thread). */
type LocalMemory = Map<string, Map<string, string>>;

function threadOf(config: LangGraphRunnableConfig): string {
  return String(config.configurable?.thread_id ?? "default");
}

async function readValue(
  local: LocalMemory,
  store: BaseStore | undefined,
  thread: string,
  key: string,
): Promise<string | undefined> {
  if (!store) return local.get(thread)?.get(key);
  const item = await store.get([...NAMESPACE, thread], key);
  return typeof item?.value?.text === "string" ? item.value.text : undefined;
}

async function writeValue(
  local: LocalMemory,
  store: BaseStore | undefined,
  target: { thread: string; key: string },
  text: string,
): Promise<void> {
  if (store) return store.put([...NAMESPACE, target.thread], target.key, { text });
  const memory = local.get(target.thread) ?? new Map<string, string>();
  memory.set(target.key, text);
  local.set(target.thread, memory);
}

const keySchema = z.string().min(1).max(200).describe("The key (a short name, e.g. research_findings).");

/**
 * tama's memory as three LangChain tools: `tama_mem_set(key, value)`, `tama_mem_get(key)` (or `[no value for key
 * 'k']`) and `tama_mem_append(key, value)` (a new line after what the key holds). Memory is per thread: every agent of
 * the graph on that thread shares it. Give them to the skills runtime's `tools` so a skill that names them unlocks them.
 * @example createSkillsInterceptor({ skills, tools: createMemoryTools() })
 */
export function createMemoryTools(options: MemoryToolsOptions = {}): StructuredToolInterface[] {
  const local: LocalMemory = new Map();
  // one write at a time per key of a thread (in this process): two appends of one step both land
  const queues = new Map<string, Promise<unknown>>();
  const serially = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(id) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(id, settled);
    void settled.then(() => queues.get(id) === settled && queues.delete(id));
    return next;
  };
  const storeOf = (config: LangGraphRunnableConfig) => options.store ?? getStore(config) ?? undefined;
  const tooLong = (length: number) =>
    `refused: the value would be ${length} characters, over the ${MEMORY_MAX_VALUE_CHARS} one key keeps`;
  const set = tool(
    async ({ key, value }, config: LangGraphRunnableConfig) => {
      if (value.length > MEMORY_MAX_VALUE_CHARS) return tooLong(value.length);
      const thread = threadOf(config);
      await serially(JSON.stringify([thread, key]), () => writeValue(local, storeOf(config), { thread, key }, value));
      return `stored '${key}' (${value.length} characters)`;
    },
    {
      name: options.names?.set ?? "tama_mem_set",
      description: "Store a value under a key in the memory the agents of this conversation share (replaces it).",
      schema: z.object({ key: keySchema, value: z.string().describe("The text to store.") }),
    },
  );
  const get = tool(
    async ({ key }, config: LangGraphRunnableConfig) =>
      (await readValue(local, storeOf(config), threadOf(config), key)) ?? `[no value for key '${key}']`,
    {
      name: options.names?.get ?? "tama_mem_get",
      description: "Read the value stored under a key (by this or another agent of this conversation).",
      schema: z.object({ key: keySchema }),
    },
  );
  const append = tool(
    async ({ key, value }, config: LangGraphRunnableConfig) => {
      const store = storeOf(config);
      const thread = threadOf(config);
      return serially(JSON.stringify([thread, key]), async () => {
        const before = await readValue(local, store, thread, key);
        const text = before === undefined ? value : `${before}\n${value}`;
        if (text.length > MEMORY_MAX_VALUE_CHARS) return tooLong(text.length);
        await writeValue(local, store, { thread, key }, text);
        return `appended to '${key}' (${text.length} characters now)`;
      });
    },
    {
      name: options.names?.append ?? "tama_mem_append",
      description: "Add a value on a new line after what a key holds (creates the key when it has none).",
      schema: z.object({ key: keySchema, value: z.string().describe("The text to add.") }),
    },
  );
  return [set, get, append];
}
