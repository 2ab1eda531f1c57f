// `npm start -- -p ... > answer.md` captures only the final answer: npm's banner is silenced (.npmrc), install/build
// progress, the CLI's activity lines and the model's text before its tool calls go to stderr.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  scriptFromFile,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from "../support/openai-compatible-server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("the main job's stdout", () => {
  let server: OpenAICompatibleServer | undefined;
  afterAll(() => server?.close());

  it("npm start -- -p PROMPT prints only the answer on stdout", async () => {
    const { script } = await scriptFromFile(join(root, "test/e2e/__fixtures__/chat-demo-script.json"));
    server = await startOpenAICompatibleServer({ script: script.slice(0, 3) });
    const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_BASE_URL: server.url, NO_COLOR: "1" };
    delete env.OPENAI_API_KEY;
    // npm_config_* of the test runner's own npm would override the project's .npmrc.
    for (const name of Object.keys(env)) if (name.toLowerCase().startsWith("npm_config_loglevel")) delete env[name];
    const child = spawn("npm", ["start", "--", "-p", "Release notes for v1.3.0", "--ephemeral"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => child.on("close", resolveExit));
    expect(code, stderr).toBe(0);
    // Only the final answer: the model's text before its tool call is activity (stderr).
    const answer = (script[2] as { content: string }).content + "\n";
    expect(stdout).toBe(answer);
    expect(stderr).toContain((script[0] as { content: string }).content.split("\n")[0]!);
    expect(stderr).toContain("[skill] loaded release-notes");
  }, 300_000);
});
