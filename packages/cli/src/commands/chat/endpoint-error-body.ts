// What the endpoint itself said when a model call failed. The OpenAI SDK keeps only an `error.message` field of an
// error body, so a vLLM-style `{"object":"error","message":…}`, a FastAPI `{"detail":…}` or a plain-text body became
// "400 status code (no body)"; the chat model's fetch keeps the body and the error is described with it.

const BODY_LIMIT = 4096;
const REASON_LIMIT = 300;
const bodies = new WeakMap<object, string>();

/** Records the body of the failed response behind `error` (the last one of the call). */
export function rememberEndpointErrorBody(error: unknown, body: string | undefined): void {
  if (body !== undefined && typeof error === "object" && error !== null) bodies.set(error, body.slice(0, BODY_LIMIT));
}

/** The endpoint's own reason for the failure behind `error`, in one line, when its body gave one. */
export function endpointErrorReason(error: unknown): string | undefined {
  const body = typeof error === "object" && error !== null ? bodies.get(error) : undefined;
  if (body === undefined || body.trim() === "") return undefined;
  const reason = reasonOfBody(body);
  return reason === undefined ? undefined : oneLine(reason);
}

/** Reads a failed response's body (bounded) without consuming the response the SDK reads. */
export async function readErrorBody(response: Response): Promise<string | undefined> {
  if (response.ok) return undefined;
  try {
    return (await response.clone().text()).slice(0, BODY_LIMIT);
  } catch {
    return undefined;
  }
}

function reasonOfBody(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.startsWith("<") ? undefined : body;
  }
  const fields = parsed as { error?: unknown; message?: unknown; detail?: unknown } | null;
  if (typeof fields !== "object" || fields === null) return String(parsed);
  const error = fields.error as { message?: unknown } | string | undefined;
  if (typeof error === "string") return error;
  if (typeof error?.message === "string") return error.message;
  if (typeof fields.message === "string") return fields.message;
  if (typeof fields.detail === "string") return fields.detail;
  if (Array.isArray(fields.detail))
    return fields.detail.map((item) => (item as { msg?: unknown }).msg ?? JSON.stringify(item)).join("; ");
  return body;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > REASON_LIMIT ? `${line.slice(0, REASON_LIMIT)}…` : line;
}
