import { describe, expect, it } from "vitest";
import { CappedOutput } from "./capped-output.js";

describe("CappedOutput", () => {
  it("returns everything when under the limit, across many chunks", () => {
    const output = new CappedOutput(16);
    for (const part of ["abc", "defgh", "ij"]) output.push(Buffer.from(part));
    expect(output.text()).toBe("abcdefghij");
    expect(output.truncated).toBe(false);
  });

  it("keeps head and tail with a marker counting the dropped bytes", () => {
    const output = new CappedOutput(8);
    const text = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (const char of text) output.push(Buffer.from(char));
    expect(output.text()).toBe("0123\n[... 28 bytes truncated ...]\nwxyz");
    expect(output.totalBytes).toBe(text.length);
  });

  it("keeps the right tail when one chunk is larger than the whole limit", () => {
    const output = new CappedOutput(8);
    output.push(Buffer.from("0123456789"));
    output.push(Buffer.from("ABCDEFGHIJ"));
    expect(output.text()).toBe("0123\n[... 12 bytes truncated ...]\nGHIJ");
  });

  it("never cuts a multi-byte character in half", () => {
    const output = new CappedOutput(8);
    output.push(Buffer.from("ééééééééé"));
    expect(output.text()).not.toContain("\uFFFD");
  });
});
