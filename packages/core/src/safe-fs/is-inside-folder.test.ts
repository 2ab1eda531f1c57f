import { describe, expect, it } from "vitest";
import { isInsideFolder } from "./is-inside-folder.js";

describe("isInsideFolder (the one containment check, used by core and @skillgraph/shell)", () => {
  it("accepts the folder itself and paths below it, including names that only start with dots", () => {
    expect(isInsideFolder("/ws", "/ws")).toBe(true);
    expect(isInsideFolder("/ws/a/b.txt", "/ws")).toBe(true);
    // The copy shell had (`!relative.startsWith("..")`) refused these: a file may be called `..notes.txt`.
    expect(isInsideFolder("/ws/..notes.txt", "/ws")).toBe(true);
    expect(isInsideFolder("/ws/...", "/ws")).toBe(true);
    expect(isInsideFolder("/ws/a/..b/c", "/ws")).toBe(true);
  });

  it("refuses parents, siblings sharing a prefix and unrelated paths", () => {
    expect(isInsideFolder("/", "/ws")).toBe(false);
    expect(isInsideFolder("/ws-other/x", "/ws")).toBe(false);
    expect(isInsideFolder("/a/bc", "/a/b")).toBe(false);
    expect(isInsideFolder("/a", "/a/b")).toBe(false);
    expect(isInsideFolder("/etc/passwd", "/ws")).toBe(false);
  });
});
