// Loopback ports for servers the tests start: the OS picks a free one, and the server binds it a moment later.
import { createServer } from "node:net";

/** A loopback port that was free when probed (the OS's choice for `listen(0)`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts a server on a free loopback port. Another process may bind the port between the probe and the server's own
 * bind: when `taken(error)` says the start failed for that reason, it is tried again on another port (`tries` ports at
 * most); any other failure, and the last one, is thrown.
 */
export async function startOnFreePort<T>(
  start: (port: number) => Promise<T>,
  taken: (error: unknown) => boolean,
  tries = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= tries || !taken(error)) throw error;
    }
  }
}
