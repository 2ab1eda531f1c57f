// A loopback port that refuses connections for as long as the test holds it. A port that was merely freed (listen(0),
// then close) can be bound again by any other process a moment later; this one stays bound by a connected socket that
// never listens, so a connection to it is answered with a reset (ECONNREFUSED) and no one else can listen on it.
import { createServer, connect, type Socket } from "node:net";

/** A held loopback port that refuses connections, and how to let it go. */
export interface RefusingPort {
  port: number;
  /** Closes the connection that holds the port. */
  close(): Promise<void>;
}

/**
 * Holds a loopback port nothing can listen on: the local end of a connection to a short-lived server. The server's
 * listening socket is closed at once; the connection (both its ends) stays open until `close()`.
 */
export async function holdRefusingPort(): Promise<RefusingPort> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port: serverPort } = server.address() as { port: number };
  const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
  const client = connect({ host: "127.0.0.1", port: serverPort });
  await new Promise<void>((resolve, reject) => {
    client.once("connect", resolve);
    client.once("error", reject);
  });
  const peer = await accepted;
  server.close(); // stops listening at once; the accepted connection lives on
  peer.on("error", () => undefined);
  client.on("error", () => undefined);
  return {
    port: client.localPort!,
    close: () =>
      new Promise<void>((resolve) => {
        let open = 2;
        const done = () => --open === 0 && resolve();
        client.once("close", done);
        peer.once("close", done);
        client.destroy();
        peer.destroy();
      }),
  };
}
