import { redactUrl } from "@skillgraph/checkpoint";

/** Why a model call failed, in words: the URL it went to and the cause (refused, DNS, TLS, timeout, HTTP status). */
export function describeChatError(
  error: unknown,
  endpoint?: { baseURL: string | undefined; timeoutMs?: number },
): string {
  const err = error as { message?: string; status?: number; name?: string };
  const message = (err.message ?? String(error)).split("\n")[0]!;
  // Shown through the CLI's one URL redaction: a base URL may carry `user:password@`.
  const url = endpoint
    ? endpoint.baseURL === undefined
      ? "https://api.openai.com/v1"
      : redactUrl(endpoint.baseURL)
    : undefined;
  const code = networkCode(error);
  const cause = code ? networkCause(code) : undefined;
  if (cause && url) return `cannot reach the model at ${url}: ${cause} (${code})`;
  if (isTimeout(error, message) && url) {
    const ms = endpoint?.timeoutMs;
    const seconds =
      ms === undefined
        ? ""
        : ` within ${ms < 10_000 ? String(Number((ms / 1000).toFixed(1))) : Math.round(ms / 1000)} s`;
    return `the model at ${url} did not answer${seconds} (timeout; raise it with --timeout SECONDS)`;
  }
  if (/^Connection error\.?$/i.test(message) && url) return `cannot reach the model at ${url}: connection failed`;
  const status = typeof err.status === "number" && !message.startsWith(String(err.status)) ? `${err.status} ` : "";
  const where = url && typeof err.status === "number" ? ` (from ${url})` : "";
  return `${status}${message}${code && !message.includes(code) ? ` (${code})` : ""}${where}`;
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
