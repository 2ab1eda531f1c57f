import { describe, expect, it } from "vitest";
import { planAttachmentStaging } from "./attachment-staging.js";
import type { ConversationAttachment } from "./conversation-attachments.js";

function attachment(name: string, size: number): ConversationAttachment & { decoded: () => number } {
  let decoded = 0;
  return {
    name,
    mimeType: "application/octet-stream",
    size,
    sha256: `sha-${name}`,
    bytes: () => {
      decoded += 1;
      return Buffer.alloc(size);
    },
    decoded: () => decoded,
  };
}

describe("planAttachmentStaging", () => {
  it("skips program configuration and oversized attachments once, and never decodes what does not fit", () => {
    const seen = new Set<string>();
    const hook = attachment("usercustomize.py", 10);
    const huge = attachment("huge.bin", 17 * 1024 * 1024);
    const a = attachment("a.bin", 9 * 1024 * 1024);
    const b = attachment("b.bin", 9 * 1024 * 1024);
    const first = planAttachmentStaging([hook, huge, a, b], seen, "/nonexistent", 16 * 1024 * 1024);
    expect(first.files.map((file) => file.path)).toEqual(["in/attachments/a.bin"]);
    expect(first.skipped.map((skipped) => skipped.name)).toEqual(["usercustomize.py", "huge.bin", "b.bin"]);
    expect([hook.decoded(), huge.decoded(), b.decoded(), a.decoded()]).toEqual([0, 0, 0, 1]);
    // the next call: the refused ones are not reported again; b fits now (a counts as staged only while it exists)
    const second = planAttachmentStaging([hook, huge, b], seen, "/nonexistent", 16 * 1024 * 1024);
    expect(second.skipped).toEqual([]);
    expect(second.files.map((file) => file.path)).toEqual(["in/attachments/b.bin"]);
  });
});
