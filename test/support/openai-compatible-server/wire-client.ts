/** A raw client for the test server's wire format: POST a chat request, read SSE events as they arrive. */

/** POSTs a chat completion request body to a server's `/v1` url. */
export const postChat = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** One `data:` payload: the parsed JSON, or the raw text when it is not JSON (`[DONE]`, a malformed line). */
export type SseEvent = Record<string, unknown> | string;

/** What reading an SSE body to its end gave: complete events, the raw text, and the error that ended it, if any. */
export interface SseRead {
  events: SseEvent[];
  raw: string;
  /** e.g. "terminated" when the connection dropped. */
  error?: string;
}

function parseEvents(raw: string): SseEvent[] {
  return raw
    .split("\n\n")
    .slice(0, -1)
    .filter((block) => block.startsWith("data: "))
    .map((block) => {
      const data = block.slice("data: ".length);
      try {
        return JSON.parse(data) as Record<string, unknown>;
      } catch {
        return data;
      }
    });
}

/** Reads an SSE response incrementally: `untilEvents(n)` waits for n complete events, `all()` reads to the end. */
export function sseReader(response: Response): {
  untilEvents(count: number): Promise<SseEvent[]>;
  all(): Promise<SseRead>;
} {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let raw = "";
  let done = false;
  let error: string | undefined;
  const pump = async () => {
    try {
      const next = await reader.read();
      if (next.done) done = true;
      else raw += decoder.decode(next.value, { stream: true });
    } catch (caught) {
      error = (caught as Error).message;
      done = true;
    }
  };
  return {
    async untilEvents(count) {
      while (!done && parseEvents(raw).length < count) await pump();
      return parseEvents(raw);
    },
    async all() {
      while (!done) await pump();
      return { events: parseEvents(raw), raw, ...(error === undefined ? {} : { error }) };
    },
  };
}

/** A streamed chunk's shape, as far as the tests read it. */
export interface WireChunk {
  id: string;
  choices: Array<{
    delta: {
      role?: string;
      content?: string;
      tool_calls?: Array<{
        index: number;
        id?: string;
        type?: string;
        function: { name?: string; arguments?: string };
      }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: unknown;
}

/** The JSON chunks of a read (no `[DONE]`, no malformed lines). */
export const chunksOf = (events: SseEvent[]): WireChunk[] =>
  events.filter((event): event is Record<string, unknown> => typeof event !== "string") as unknown as WireChunk[];

/** Every tool-call delta of the chunks, in order. */
export const toolDeltasOf = (chunks: WireChunk[]) =>
  chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));

/** Streams one request and reads it to the end. */
export async function streamChat(url: string, body: Record<string, unknown>): Promise<SseRead> {
  return sseReader(await postChat(url, { model: "m", messages: [], ...body, stream: true })).all();
}

/** A non-streaming answer: status, headers, raw text, and the parsed JSON (undefined when the body is not JSON). */
export interface ChatAnswer {
  status: number;
  headers: Headers;
  text: string;
  // oxlint-disable-next-line typescript/no-explicit-any -- tests read deep into arbitrary completion JSON
  json: Record<string, any> | undefined;
}

/** Sends one non-streaming request and returns the status and parsed body. */
export async function chatJson(url: string, body: Record<string, unknown> = {}): Promise<ChatAnswer> {
  const response = await postChat(url, { model: "m", messages: [], ...body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as ChatAnswer["json"] };
}
