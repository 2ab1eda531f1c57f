import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createChatRenderer } from "./chat-renderer.js";

function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on("data", (chunk: Buffer) => err.push(chunk.toString()));
  return { stdout, stderr, out: () => out.join(""), err: () => err.join("") };
}

describe("createChatRenderer", () => {
  it("writes tokens to stdout as they come and activity lines to stderr", () => {
    const io = capture();
    const renderer = createChatRenderer({ ...io, color: false });
    renderer.render({ type: "tool-call", id: "c1", name: "read_skill", args: { name: "sql-review" } });
    renderer.render({ type: "skill", event: { type: "skill-loaded", skill: "sql-review" } });
    renderer.render({
      type: "tool-result",
      id: "c1",
      name: "read_skill",
      content: "line one\nline two",
      isError: false,
    });
    renderer.render({ type: "token", text: "Looks " });
    renderer.render({ type: "token", text: "fine." });
    renderer.endTurn();
    expect(io.out()).toBe("Looks fine.\n");
    expect(io.err()).toBe(
      '[tool] read_skill {"name":"sql-review"}\n[skill] loaded sql-review\n[tool] read_skill -> 2 lines, 17 chars\n',
    );
  });

  it("ends a half-written answer line before an activity line", () => {
    const io = capture();
    const renderer = createChatRenderer({ ...io, color: false });
    renderer.render({ type: "token", text: "Let me check." });
    renderer.render({ type: "tool-call", id: "c1", name: "search_skills", args: { query: "sql" } });
    renderer.render({ type: "token", text: "Done." });
    renderer.endTurn();
    expect(io.out()).toBe("Let me check.\nDone.\n");
  });

  it("shows a failed tool's first line, and hides activity when quiet", () => {
    const loud = capture();
    createChatRenderer({ ...loud, color: false }).render({
      type: "tool-result",
      id: "c",
      name: "read_skill_file",
      content: "Error: no such file\nstack",
      isError: true,
    });
    expect(loud.err()).toBe("[tool] read_skill_file failed: Error: no such file\n");
    const quiet = capture();
    const renderer = createChatRenderer({ ...quiet, color: false }, { quiet: true });
    renderer.render({ type: "skill", event: { type: "skill-loaded", skill: "x" } });
    renderer.render({ type: "token", text: "answer" });
    renderer.endTurn();
    expect(quiet.err()).toBe("");
    expect(quiet.out()).toBe("answer\n");
  });

  it("colours activity lines only when colour is on", () => {
    const io = capture();
    createChatRenderer({ ...io, color: true }).render({ type: "skill", event: { type: "skill-loaded", skill: "x" } });
    expect(io.err()).toBe("\u001b[36m[skill] loaded x\u001b[39m\n");
  });

  it("hides the routine turn-end unload but shows an eviction", () => {
    const io = capture();
    const renderer = createChatRenderer({ ...io, color: false });
    renderer.render({ type: "skill", event: { type: "skill-unloaded", skill: "a", reason: "turn-ended" } });
    renderer.render({ type: "skill", event: { type: "skill-evicted", skill: "b", reason: "cap" } });
    expect(io.err()).toBe("[skill] unloaded b (cap)\n");
  });
});
