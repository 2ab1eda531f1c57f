import type { SaverBackend } from "../store/saver-backend.js";
import type { LeaseStore } from "./lease-rows.js";
import { memoryLeases } from "./memory-leases.js";
import { postgresLeases } from "./postgres-leases.js";
import { sqliteLeases } from "./sqlite-leases.js";

const stores = new WeakMap<object, LeaseStore>();

/** The lease table of a saver's database (created on first use), with the write fence installed on its connection. */
export function leaseStoreFor(backend: SaverBackend): LeaseStore {
  const known = stores.get(backend.saver);
  if (known) return known;
  const store =
    backend.kind === "sqlite"
      ? sqliteLeases(backend)
      : backend.kind === "postgres"
        ? postgresLeases(backend)
        : memoryLeases();
  stores.set(backend.saver, store);
  return store;
}
