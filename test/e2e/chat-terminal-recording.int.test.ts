// A terminal recording of an interactive `skillgraph chat` in tmux (a real PTY): the spinner while the model thinks,
// `$skill` invocation, Ctrl-C cancelling a request, and the session resumed afterwards with everything before it.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../support/openai-compatible-server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const socket = `skillgraph-rec-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-t", "rec");

/** Polls the screen until `pattern` shows (bounded); returns the screen. */
async function waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} on screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!hasTmux)("interactive skillgraph chat in a terminal (tmux)", () => {
  let server: OpenAICompatibleServer | undefined;
  let releaseSlow: () => void = () => {};
  let releaseFirst: () => void = () => {};
  const dir = mkdtempSync(join(tmpdir(), "skillgraph-rec-"));
  afterAll(async () => {
    releaseFirst();
    releaseSlow();
    spawnSync("tmux", ["-L", socket, "kill-server"]);
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows a spinner, loads a $skill, cancels on Ctrl-C and resumes the session", async () => {
    // both replies wait for the test: the first until it has seen the spinner, the second for ever (cancelled)
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    server = await startOpenAICompatibleServer({
      script: [
        async () => {
          await first;
          return "Notes ready.";
        },
        async () => {
          await slow;
          return "too late";
        },
        "Resumed fine.",
      ],
    });
    const launcher = join(dir, "chat.sh");
    writeFileSync(
      launcher,
      [
        "#!/bin/sh",
        `cd ${JSON.stringify(root)}`,
        `export OPENAI_BASE_URL=${JSON.stringify(server.url)} HOME=${JSON.stringify(dir)} NO_COLOR=1 TERM=xterm-256color`,
        `exec ${JSON.stringify(process.execPath)} --conditions=@skillgraph/source --import tsx packages/cli/src/bin.ts chat --skills examples/skills --session rec --checkpoint sqlite:${dir}/sessions.db`,
      ].join("\n"),
      { mode: 0o755 },
    );
    tmux("new-session", "-d", "-s", "rec", "-x", "160", "-y", "50", "sh");
    tmux("send-keys", "-t", "rec", `sh ${launcher}`, "Enter");
    await waitFor(/session rec \(new;[\s\S]*\/help for commands\.\n>/);

    // $skill: loaded before the model runs; the spinner shows while the (slow) model answers.
    tmux("send-keys", "-t", "rec", "-l", "$release-notes notes for v1.3.0");
    tmux("send-keys", "-t", "rec", "Enter");
    // The skill is loaded first (a real read_skill), then the spinner runs while the model call is pending.
    const spinning = await waitFor(/\[skill\] loaded release-notes[\s\S]*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for the model/);
    expect(spinning).not.toContain("Notes ready.");
    releaseFirst();
    const answered = await waitFor(/Notes ready\.\n>/);
    expect(answered).not.toMatch(/waiting for the model/);
    expect(server.requests[0]!.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
    ]);

    // Ctrl-C cancels the request that hangs; the REPL stays.
    tmux("send-keys", "-t", "rec", "-l", "slow question");
    tmux("send-keys", "-t", "rec", "Enter");
    await waitFor(/waiting for the model/);
    // cancel once the request is with the server (before, its reply would be left for the next turn)
    for (const deadline = Date.now() + 60_000; server.requests.length < 2;) {
      if (Date.now() > deadline) throw new Error("the slow question's request never reached the server");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    tmux("send-keys", "-t", "rec", "C-c");
    await waitFor(/cancelled; the session keeps everything before it\.\n>/);
    tmux("send-keys", "-t", "rec", "-l", "/exit");
    tmux("send-keys", "-t", "rec", "Enter");
    await waitFor(/\/exit\n[#$]/);

    // Resume: the session comes back with both earlier questions.
    tmux("send-keys", "-t", "rec", `sh ${launcher}`, "Enter");
    await waitFor(/session rec \(resumed;[\s\S]*\/help for commands\.\n>/);
    tmux("send-keys", "-t", "rec", "-l", "again");
    tmux("send-keys", "-t", "rec", "Enter");
    await waitFor(/Resumed fine\.\n>/);
    const last = server.requests.at(-1)!;
    const userTexts = last.messages
      .filter((message) => message.role === "user")
      .map((message) => textOf(message.content));
    expect(userTexts).toEqual(["$release-notes notes for v1.3.0", "slow question", "again"]);
    expect(server.requests).toHaveLength(3);
  }, 180_000);
});
