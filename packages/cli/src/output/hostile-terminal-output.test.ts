// Terminal escape sequences from skill text, tool output and session content never reach the terminal raw in human
// output (list, show, search, validate, sessions list/show, chat), while JSON output keeps the exact text.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../../../checkpoint/src/__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "@skillgraph/checkpoint";
import { writeTree } from "../../../../test/support/skill-tree.js";
import { captureIO } from "../__fixtures__/capture-io.js";
import { createChatRenderer } from "../commands/chat/chat-renderer.js";
import { runCli } from "../run-cli.js";
import { terminalSafe } from "./terminal-safe.js";

/** OSC 52 (clipboard), OSC 0 (title), clear screen, cursor home, a C1 CSI, a bare CR, BEL, DEL. */
const HOSTILE = "\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u001b[2J\u001b[H\u009b31m\rX\u0007\u007f";
/** The same in YAML double-quoted escapes, for a SKILL.md. */
const HOSTILE_YAML = "\\e]52;c;ZXZpbA==\\a\\e]0;pwned\\a\\e[2J\\e[H\\x9b31m\\rX\\a\\x7f";

/** Any control character but \n and \t (C0, DEL, C1). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const root = writeTree({
  "skills/evil-skill/SKILL.md": `---\nname: evil-skill\ndescription: "Looks harmless ${HOSTILE_YAML} really"\nlicense: "MIT ${HOSTILE_YAML}"\n---\n\n# Body\n\n${HOSTILE}\n`,
  "skills/ok-skill/SKILL.md": "---\nname: ok-skill\ndescription: Fine and dandy.\n---\nbody\n",
  "skills/bad-name/SKILL.md": `---\nname: "bad${HOSTILE_YAML}"\ndescription: "x"\n---\nbody\n`,
});

describe("terminalSafe", () => {
  it("shows every control except newline and tab in caret or hex notation", () => {
    expect(terminalSafe(HOSTILE)).toBe("^[]52;c;ZXZpbA==^G^[]0;pwned^G^[[2J^[[H<9b>31m^MX^G^?");
    expect(terminalSafe("a\tb\nc")).toBe("a\tb\nc");
    for (let code = 0; code < 0xa0; code++) {
      const char = String.fromCharCode(code);
      if (char !== "\n" && char !== "\t") expect(terminalSafe(`x${char}y`)).not.toMatch(RAW_CONTROL);
    }
  });

  it("leaves printable Unicode alone (wide characters, emoji)", () => {
    expect(terminalSafe("技能 ✓ 🎉 café")).toBe("技能 ✓ 🎉 café");
  });
});

describe("human output of every command is terminal-safe", () => {
  const skills = join(root, "skills");
  it.each([
    [["list", "--skills", skills]],
    [["show", "evil-skill", "--skills", skills]],
    [["search", "harmless", "--skills", skills]],
    [["validate", "--all", skills]],
    [["prompt", "--skills", skills, "--format", "markdown"]],
  ])("%j writes no raw control character to a terminal, and says the hostile text is there", async (args) => {
    const io = { ...captureIO(root), isTTY: true };
    await runCli(args, io);
    const all = io.out() + io.err();
    expect(all).not.toMatch(RAW_CONTROL);
    expect(all).toContain("^[]52;c;ZXZpbA==^G");
  });

  it("prompt piped to a file keeps the exact text the model gets", async () => {
    const io = captureIO(root);
    expect(await runCli(["prompt", "--skills", skills, "--format", "markdown"], io)).toBe(0);
    expect(io.out()).toContain("\u001b]52;c;ZXZpbA==\u0007");
  });

  it("JSON output keeps the exact text", async () => {
    const io = captureIO(root);
    expect(await runCli(["show", "evil-skill", "--json", "--skills", skills], io)).toBe(0);
    const skill = JSON.parse(io.out()) as { description: string; body: string };
    expect(skill.description).toContain("\u001b]52;c;ZXZpbA==\u0007");
    expect(skill.body).toContain("\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u001b[2J\u001b[H\u009b31m");
  });

  it("sessions list and show escape hostile session names and message content", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-hostile-sessions-"));
    const url = `sqlite:${join(dir, "sessions.db")}`;
    const saver = await createCheckpointer(url);
    const thread = `evil${HOSTILE}`;
    const graph = buildSessionGraph({
      checkpointer: saver,
      messages: "delta",
      script: [{ say: `answer ${HOSTILE}` }],
      lookup: () => ({ hash: "h" }),
    });
    await graph.invoke(userTurn(`question ${HOSTILE}`, "u1"), { configurable: { thread_id: thread } });
    await closeCheckpointer(saver);
    writeFileSync(join(dir, "placeholder"), "");
    for (const args of [
      ["sessions", "list", "--checkpoint", url],
      ["sessions", "show", thread, "--checkpoint", url],
    ]) {
      const io = captureIO(dir);
      expect(await runCli(args, io), args.join(" ")).toBe(0);
      expect(io.out() + io.err()).not.toMatch(RAW_CONTROL);
      expect(io.out()).toContain("evil^[]52;c;ZXZpbA==^G");
    }
    const json = captureIO(dir);
    expect(await runCli(["sessions", "list", "--json", "--checkpoint", url], json)).toBe(0);
    expect((JSON.parse(json.out()) as { sessions: Array<{ threadId: string }> }).sessions[0]!.threadId).toBe(thread);
  });

  it("chat escapes answer tokens, tool output and skill names", () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = "";
    let err = "";
    stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const renderer = createChatRenderer({ stdout, stderr, color: false }, { spinner: false });
    renderer.render({ type: "tool-call", id: "c1", name: `run${HOSTILE}`, args: { command: HOSTILE } });
    renderer.render({
      type: "tool-result",
      id: "c1",
      name: "run_skill_script",
      content: `boom ${HOSTILE}`,
      isError: true,
    });
    renderer.render({ type: "skill", event: { type: "skill-loaded", skill: `evil${HOSTILE}` } });
    renderer.render({ type: "token", text: `The answer ${HOSTILE.slice(0, 5)}` });
    renderer.render({ type: "token", text: HOSTILE.slice(5) });
    renderer.endTurn();
    expect(out + err).not.toMatch(RAW_CONTROL);
    expect(out).toContain("The answer ^[]52;");
    expect(err).toContain("[skill] loaded evil^[]52;c;ZXZpbA==^G");
  });
});
