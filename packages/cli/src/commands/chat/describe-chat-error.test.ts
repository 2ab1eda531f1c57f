import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createChatModel } from "./create-chat-model.js";
import { describeChatError } from "./describe-chat-error.js";
import { holdRefusingPort } from "../../../../../test/support/refusing-port.js";

/** A real model call's error against `baseURL`. */
async function failure(baseURL: string, timeoutMs?: number, maxRetries = 0): Promise<unknown> {
  const model = createChatModel(
    { baseURL, apiKey: "k", model: "m" },
    { maxRetries, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
  );
  try {
    for await (const _chunk of await model.stream("hi")) void _chunk;
  } catch (error) {
    return error;
  }
  throw new Error("the call did not fail");
}

describe("describeChatError names the URL and the cause", () => {
  it("connection refused (a real call to a port nobody listens on)", async () => {
    const refusing = await holdRefusingPort();
    const url = `http://127.0.0.1:${refusing.port}/v1`;
    const error = await failure(url).finally(() => refusing.close());
    expect(describeChatError(error, { baseURL: url })).toBe(
      `cannot reach the model at ${url}: connection refused (is the server running?) (ECONNREFUSED)`,
    );
  });

  it("timeout (a real server that accepts and never answers)", async () => {
    const sockets: import("node:net").Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    try {
      expect(describeChatError(await failure(url, 300), { baseURL: url, timeoutMs: 300 })).toBe(
        `the model at ${url} did not answer within 0.3 s (1 attempt, retries included; raise the limit with --timeout SECONDS)`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("the limit is wall-clock over the whole call, retries included (a server that answers only with silence)", async () => {
    // The first request gets a 500 right away, the retry only silence: both attempts count against one limit.
    let requests = 0;
    const sockets: import("node:net").Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.once("data", () => {
        requests++;
        if (requests === 1)
          socket.end("HTTP/1.1 500 Internal Server Error\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    try {
      const started = Date.now();
      const error = await failure(url, 4000, 3);
      const elapsed = Date.now() - started;
      const message = describeChatError(error, { baseURL: url, timeoutMs: 4000 });
      expect(message).toMatch(
        new RegExp(
          `^the model at ${url.replace(/[./]/g, "\\$&")} did not answer within 4 s \\((\\d+) attempts, retries included;`,
        ),
      );
      const attempts = Number(/\((\d+) attempts/.exec(message)![1]);
      expect(attempts).toBeGreaterThanOrEqual(2);
      expect(attempts).toBe(requests);
      // Measured, not asserted tightly: one limit (4 s) for the whole call; a per-attempt limit would allow 4 x 4 s.
      console.log(`silent server, timeout 4 s with 3 retries allowed: ended after ${elapsed} ms, ${attempts} attempts`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.each([
    ["ENOTFOUND", "DNS lookup failed (check the host name)"],
    ["EAI_AGAIN", "DNS lookup failed (check the host name)"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "TLS error (certificate or protocol; is it http, not https?)"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "TLS error (certificate or protocol; is it http, not https?)"],
    ["ECONNRESET", "connection reset by the server"],
  ])("%s deep in the cause chain", (code, cause) => {
    const error = new Error("Connection error.", {
      cause: new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code }) }),
    });
    expect(describeChatError(error, { baseURL: "https://models.example/v1" })).toBe(
      `cannot reach the model at https://models.example/v1: ${cause} (${code})`,
    );
  });

  it("an HTTP error keeps the endpoint's message and status and names the URL", () => {
    const error = Object.assign(new Error("The model `nope` does not exist"), { status: 404 });
    expect(describeChatError(error, { baseURL: "http://h/v1" })).toBe(
      "404 The model `nope` does not exist (from http://h/v1)",
    );
  });

  it.each([
    [
      "vLLM",
      '{"object":"error","message":"This model\'s maximum context length is 4096 tokens","type":"BadRequestError","param":null,"code":400}',
      "This model's maximum context length is 4096 tokens",
    ],
    ["FastAPI", '{"detail":"model not loaded"}', "model not loaded"],
    ["FastAPI validation", '{"detail":[{"loc":["body","messages"],"msg":"field required"}]}', "field required"],
    ["plain text", "upstream overloaded, try later", "upstream overloaded, try later"],
  ])("an error body in %s shape: the server's own reason, the status and the URL", async (_shape, body, reason) => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(400, { "content-type": body.startsWith("{") ? "application/json" : "text/plain" });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    try {
      const message = describeChatError(await failure(url), { baseURL: url });
      expect(message).toContain(reason);
      expect(message).toMatch(/^400 /);
      expect(message).toContain(`(from ${url})`);
      expect(message).not.toContain("(no body)");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a stream the server drops midway names the endpoint and says the reply was not complete", async () => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = {
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{ index: 0, delta: { content: "Half an" }, finish_reason: null }],
      };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    try {
      const message = describeChatError(await failure(url), { baseURL: url });
      expect(message).toContain(url);
      expect(message).toMatch(/closed the connection before its reply was complete|connection reset by the server/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
