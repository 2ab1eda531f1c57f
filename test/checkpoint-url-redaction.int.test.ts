// Issue 9.5: a PostgreSQL password holding '@', '/', '#' or '?' (percent-encoded or raw) never appears in what a failed
// createCheckpointer throws (message, fields, cause chain) nor in what `skillgraph sessions` prints.
import { spawnSync } from "node:child_process";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PassThrough } from "node:stream";
import { createCheckpointer } from "../packages/checkpoint/src/index.js";
import { runCli } from "../packages/cli/src/run-cli.js";
import { holdRefusingPort, type RefusingPort } from "./support/refusing-port.js";

const secret = "Hunter2Xy";
const specials = ["@", "/", "#", "?"];
let refusing: RefusingPort;
let closedPort = 0;

beforeAll(async () => {
  refusing = await holdRefusingPort();
  closedPort = refusing.port;
});
afterAll(() => refusing.close());

/** Every URL shape of a password with `char`: percent-encoded, and raw in several positions. */
function urlsWith(char: string, host: string): string[] {
  return [
    `postgres://bob:${secret}${encodeURIComponent(char)}${secret}@${host}/db`,
    `postgres://bob:${secret}${char}${secret}@${host}/db`,
    `postgres://bob:42${char}${secret}@${host}/db`,
    `postgresql://bob:${char}${secret}@${host}/db?schema=s1`,
  ];
}

/** Runs the CLI in this process with captured streams; an escaping exception counts as output too. */
async function runCliCaptured(argv: string[]): Promise<{ code: number | undefined; output: string }> {
  let output = "";
  const sink = () =>
    Object.assign(
      new PassThrough().on("data", (chunk) => (output += String(chunk))),
      { isTTY: false },
    );
  const io = {
    stdout: sink(),
    stderr: sink(),
    stdin: new PassThrough(),
    env: { NO_COLOR: "1" },
    cwd: process.cwd(),
    color: false,
    isTTY: false,
  };
  try {
    return { code: await runCli(argv, io), output };
  } catch (error) {
    return { code: undefined, output: `${output}\n${everythingShown(error)}` };
  }
}

function everythingShown(error: unknown): string {
  return `${String(error)}\n${(error as Error)?.message}\n${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}`;
}

describe("a PostgreSQL password never leaks", () => {
  it.each(specials)("from createCheckpointer, password with '%s' (server unreachable)", async (char) => {
    for (const url of urlsWith(char, `127.0.0.1:${closedPort}`)) {
      const error = await createCheckpointer(url, { connectTimeoutMs: 2000, startupRetryMs: 0 }).then(
        () => new Error(`connected to a closed port with ${url.length} chars`),
        (e: unknown) => e,
      );
      expect(everythingShown(error), url).not.toContain(secret);
      expect((error as Error).message.length).toBeGreaterThan(10);
    }
  });

  it.each(specials)("from `skillgraph sessions` output, password with '%s'", async (char) => {
    const postgres = inject("postgresUrl");
    const hosts = [`127.0.0.1:${closedPort}`, ...(postgres ? [new URL(postgres).host] : [])];
    for (const host of hosts) {
      for (const url of urlsWith(char, host)) {
        for (const args of [["list"], ["show", "no-such-session"], ["delete", "no-such-session"]]) {
          const { output } = await runCliCaptured(["sessions", ...args, "--checkpoint", url]);
          expect(output, `${args.join(" ")} ${host}`).not.toContain(secret);
          expect(output.trim().length).toBeGreaterThan(0);
        }
      }
    }
  });

  it("from the installed command line (a child process), password with a raw '@' and '#'", () => {
    const url = `postgres://bob:${secret}@#${secret}@127.0.0.1:${closedPort}/db`;
    for (const candidate of [url, `postgres://bob:${secret}%40x@127.0.0.1:${closedPort}/db`]) {
      const result = spawnSync(
        process.execPath,
        [
          "--conditions=@skillgraph/source",
          "--import",
          "tsx",
          "packages/cli/src/bin.ts",
          "sessions",
          "list",
          "--checkpoint",
          candidate,
        ],
        {
          encoding: "utf8",
          timeout: 60_000,
          env: { ...process.env, NO_COLOR: "1" },
        },
      );
      expect(result.status).toBe(1);
      expect(`${result.stdout}\n${result.stderr}`).not.toContain(secret);
      expect(result.stderr).toMatch(/^error: /m);
    }
  });
});
