import { CheckpointerError } from "../errors/checkpointer-error.js";
import { describeDriverError, isConnectionLoss } from "./connection-errors.js";

/** Where an operation ran, for the error message. */
export interface RetryTarget {
  /** The database URL, password redacted. */
  url: string;
  /** Milliseconds to wait before the one retry (the server may be coming back). */
  delayMs: number;
  /** Removes secrets from driver text. */
  scrub?: (text: string) => string;
}

/**
 * Runs an idempotent database operation; when it fails because the connection was lost, runs it once more on a new
 * connection (after `delayMs`). A second loss becomes a CheckpointerError `connection-lost` naming the operation;
 * any other error passes through unchanged.
 */
export async function retryOnceOnConnectionLoss<T>(
  what: string,
  target: RetryTarget,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (first) {
    if (!isConnectionLoss(first)) throw first;
    await new Promise((resolve) => setTimeout(resolve, target.delayMs));
    try {
      return await operation();
    } catch (second) {
      if (!isConnectionLoss(second)) throw second;
      const scrub = target.scrub ?? ((text: string) => text);
      throw new CheckpointerError({
        url: target.url,
        reason: "connection-lost",
        message:
          `Lost the connection to PostgreSQL at '${target.url}' during ${what}, and again on the one retry: ` +
          `${scrub(describeDriverError(second))} (first: ${scrub(describeDriverError(first))}). Nothing was half-written ` +
          `(each write is one transaction); try again when the database is back.`,
      });
    }
  }
}
