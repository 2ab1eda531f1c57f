import { redactUrl } from "@skillgraph/checkpoint";
import { ModelCallTimeoutError } from "./model-call-timeout-error.js";
import { endpointErrorReason } from "./endpoint-error-body.js";

/** Why a model call failed, in words: the URL it went to and the cause (refused, DNS, TLS, timeout, HTTP status). */
export function describeChatError(
  error: unknown,
  endpoint?: { baseURL: string | undefined; timeoutMs?: number },
): string {
  const err = error as { message?: string; status?: number; name?: string };
  const message = (err.message ?? String(error)).split("\n")[0]!;
  const url = endpointUrl(endpoint);
  const code = networkCode(error);
  const cause = code ? networkCause(code) : undefined;
  if (cause && url) return `cannot reach the model at ${url}: ${cause} (${code})`;
  if (ModelCallTimeoutError.isTimeout(error) && url) {
    const ms = error.timeoutMs;
    const tries = `${error.attempts} attempt${error.attempts === 1 ? "" : "s"}`;
    return `the model at ${url} did not answer within ${formatSeconds(ms)} s (${tries}, retries included; raise the limit with --timeout SECONDS)`;
  }
  if (isTimeout(error, message) && url) {
    const ms = endpoint?.timeoutMs;
    const seconds = ms === undefined ? "" : ` within ${formatSeconds(ms)} s`;
    return `the model at ${url} did not answer${seconds} (timeout; raise it with --timeout SECONDS)`;
  }
  if (url && hasCauseMessage(error, /^bad port$/i)) {
    const port = portOf(url);
    return `cannot reach the model at ${url}: port ${port} is one fetch refuses to connect to (a "bad port" in the Fetch standard, reserved for other protocols); run the server on another port`;
  }
  if (/^Connection error\.?$/i.test(message) && url) {
    const detail = deepestCauseMessage(error);
    return `cannot reach the model at ${url}: connection failed${detail ? ` (${detail})` : ""}`;
  }
  return otherFailure(error, message, url, code);
}

/** An HTTP error with the endpoint's own reason, a reply that broke off or was not JSON; the endpoint always named. */
function otherFailure(error: unknown, message: string, url: string | undefined, code: string | undefined): string {
  const status = (error as { status?: unknown }).status;
  const reason = endpointErrorReason(error);
  let text = message;
  if (reason !== undefined && !message.includes(reason)) text = `${message.replace(/\s*\(no body\)$/, "")}: ${reason}`;
  if (typeof status === "number") {
    const prefix = text.startsWith(String(status)) ? "" : `${status} `;
    return `${prefix}${text}${url ? ` (from ${url})` : ""}`;
  }
  const codeNote = code && !text.includes(code) ? ` (${code})` : "";
  if (!url) return `${text}${codeNote}`;
  if (code === "UND_ERR_SOCKET" || /^terminated$/i.test(text))
    return `the model at ${url} closed the connection before its reply was complete${codeNote}`;
  if ((error as { name?: unknown }).name === "SyntaxError")
    return `the model at ${url} sent a reply that is not valid JSON: ${text}`;
  return `the model call to ${url} failed: ${text}${codeNote}`;
}

/** The endpoint as shown (through the CLI's one URL redaction: a base URL may carry `user:password@`). */
function endpointUrl(endpoint: { baseURL: string | undefined } | undefined): string | undefined {
  if (!endpoint) return undefined;
  return endpoint.baseURL === undefined ? "https://api.openai.com/v1" : redactUrl(endpoint.baseURL);
}

function formatSeconds(ms: number): string {
  return ms < 10_000 ? String(Number((ms / 1000).toFixed(1))) : String(Math.round(ms / 1000));
}

function isTimeout(error: unknown, message: string): boolean {
  const name = (error as { name?: string; constructor?: { name?: string } }).constructor?.name ?? "";
  return /timed? ?out/i.test(message) || /Timeout/.test(name) || (error as { name?: string }).name === "TimeoutError";
}

function networkCause(code: string): string | undefined {
  if (code === "ECONNREFUSED") return "connection refused (is the server running?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "DNS lookup failed (check the host name)";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset by the server";
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "connection timed out";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "host unreachable";
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return "TLS error (certificate or protocol; is it http, not https?)";
  return undefined;
}

/** The first `code` such as ECONNREFUSED along the error's cause chain. */
function networkCode(error: unknown): string | undefined {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 6;
    current = current.cause as typeof current, depth++
  ) {
    if (
      typeof current.code === "string" &&
      /^(E[A-Z_]+|UND_ERR_[A-Z_]+|ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*|DEPTH_ZERO_SELF_SIGNED_CERT)$/.test(current.code)
    )
      return current.code;
  }
  return undefined;
}

/** True when some error along the cause chain has a message matching `pattern`. */
function hasCauseMessage(error: unknown, pattern: RegExp): boolean {
  for (
    let current = error as { message?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 6;
    current = current.cause as typeof current, depth++
  )
    if (typeof current.message === "string" && pattern.test(current.message)) return true;
  return false;
}

/** The message of the last error along the cause chain, when it says more than the generic wrappers. */
function deepestCauseMessage(error: unknown): string | undefined {
  let last: string | undefined;
  for (
    let current = (error as { cause?: unknown }).cause as { message?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 6;
    current = current.cause as typeof current, depth++
  )
    if (typeof current.message === "string" && current.message !== "") last = current.message;
  return last && !/^(fetch failed|Connection error\.?)$/i.test(last) ? last.split("\n")[0] : undefined;
}

/** The port of an http(s) URL (the scheme's default when none is written). */
function portOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  } catch {
    return "?";
  }
}
