import { AsyncLocalStorage } from "node:async_hooks";

/** The lease a write is made under: the database refuses it unless the lease row still has this owner and token. */
export interface WriteFence {
  threadId: string;
  owner: string;
  /** Fencing token: increases on every takeover of the session's lease. */
  token: number;
}

const fences = new AsyncLocalStorage<WriteFence>();

/** Runs a saver call with its database writes fenced by a lease (checked by the database in the write's transaction). */
export function runFenced<T>(fence: WriteFence, operation: () => Promise<T>): Promise<T> {
  return fences.run(fence, operation);
}

/** The fence of the saver call running now, if any. */
export function currentFence(): WriteFence | undefined {
  return fences.getStore();
}

/** Marker text of the SQLite trigger's abort, recognised to turn it into SessionLeaseLostError. */
export const FENCE_REFUSAL = "skillgraph-lease-fence";
