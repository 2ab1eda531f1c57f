import { connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { holdRefusingPort } from "./refusing-port.js";

function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
  });
}

function listenError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(undefined)));
  });
}

describe("holdRefusingPort", () => {
  it("refuses connections, and no server can listen on it while it is held", async () => {
    const held = await holdRefusingPort();
    try {
      expect(await connectError(held.port)).toBe("ECONNREFUSED");
      expect(await listenError(held.port)).toBe("EADDRINUSE");
      expect(await connectError(held.port)).toBe("ECONNREFUSED");
    } finally {
      await held.close();
    }
  });
});
