import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startOnFreePort } from "./free-port.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Listens on `port` (loopback) as a test's server would; rejects with the bind's error. */
function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      servers.push(server);
      resolve(server);
    });
  });
}

const taken = (error: unknown) => (error as NodeJS.ErrnoException).code === "EADDRINUSE";

describe("startOnFreePort", () => {
  it("tries another port when the probed one was bound by someone else before the server's bind", async () => {
    const tried: number[] = [];
    const server = await startOnFreePort(async (port) => {
      tried.push(port);
      // the first time, another process takes the port between the probe and the bind
      if (tried.length === 1) await listenOn(port);
      return listenOn(port);
    }, taken);
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
    expect((server.address() as { port: number }).port).toBe(tried[1]);
  });

  it("throws any other failure at once, and the last one after as many ports as allowed", async () => {
    let calls = 0;
    const broken = new Error("no such binary");
    await expect(
      startOnFreePort(async () => {
        calls += 1;
        throw broken;
      }, taken),
    ).rejects.toBe(broken);
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      startOnFreePort(
        async (port) => {
          calls += 1;
          await listenOn(port);
          return listenOn(port);
        },
        taken,
        3,
      ),
    ).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(calls).toBe(3);
  });
});
