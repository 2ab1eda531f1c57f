// Each example's README shows how to run it without a model: the scripted OpenAI-compatible server playing the
// example's demo-replies.json, then the example against it, and what it prints. This runs exactly those two command
// lines from the README (only the port is a free one instead of 8787) and checks the printed output is the README's.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const examples = readdirSync(join(root, "examples")).filter((name) =>
  existsSync(join(root, "examples", name, "demo-replies.json")),
);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

interface DemoRun {
  server: string[];
  example: { env: Record<string, string>; args: string[] };
  prints: string;
}

/** The README's "Run it without a model" section: the server line, the example line and the printed text. */
function demoRun(readme: string): DemoRun {
  const section = readme.slice(readme.indexOf("## Run it without a model"));
  const blocks = [...section.matchAll(/```(sh|text)\n([\s\S]*?)```/g)].map((match) => match[2]!.trimEnd());
  const [serverLine, exampleLine, prints] = blocks;
  const exampleWords = exampleLine!.split(" ");
  const env = Object.fromEntries(
    exampleWords.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split("=", 2) as [string, string]),
  );
  return {
    server: serverLine!.split(" "),
    example: { env, args: exampleWords.filter((word) => !/^[A-Z_]+=/.test(word)) },
    prints: prints!,
  };
}

function run(words: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [command, ...args] = words;
  const child = spawn(command === "node" ? process.execPath : command!, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return child;
}

it("every runnable example (a folder with a package.json) ships demo replies and a README demo run", () => {
  const runnable = readdirSync(join(root, "examples")).filter((name) =>
    existsSync(join(root, "examples", name, "package.json")),
  );
  expect(runnable.length).toBeGreaterThan(0);
  expect(examples).toEqual(runnable);
});

describe.each(examples)("examples/%s README demo run", (name) => {
  it("prints what the README says, against the scripted server with the example's replies", async () => {
    const demo = demoRun(readFileSync(join(root, "examples", name, "README.md"), "utf8"));
    expect(demo.server.slice(0, 5)).toEqual([
      "node",
      "--import",
      "tsx",
      "test/support/openai-compatible-server.ts",
      "--script",
    ]);
    expect(demo.server[5]).toBe(`examples/${name}/demo-replies.json`);
    const port = demo.server.indexOf("--port");
    const server = run(
      demo.server.map((word, index) => (index === port + 1 ? "0" : word)),
      {},
    );
    const url = await new Promise<string>((resolveUrl, reject) => {
      let out = "";
      server.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolveUrl(out.split("\n")[0]!);
      });
      server.on("exit", (code) => reject(new Error(`the demo server exited (${code})`)));
    });
    expect(demo.example.env.OPENAI_BASE_URL).toBe("http://127.0.0.1:8787/v1");
    const example = run(demo.example.args, { ...demo.example.env, OPENAI_BASE_URL: url });
    let stdout = "";
    let stderr = "";
    example.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    example.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => example.on("close", resolveExit));
    expect(code, stderr).toBe(0);
    expect(stdout.trimEnd()).toBe(demo.prints);
  }, 120_000);
});
