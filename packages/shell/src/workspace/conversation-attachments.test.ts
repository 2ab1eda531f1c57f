import { HumanMessage, AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { conversationAttachments } from "./conversation-attachments.js";

const base64 = (text: string) => Buffer.from(text).toString("base64");

describe("conversationAttachments", () => {
  it("reads v1 and legacy base64 file blocks from human messages only, with safe unique names", () => {
    const messages = [
      new HumanMessage({
        content: [{ type: "file", mimeType: "text/csv", data: base64("a,b"), metadata: { filename: "../../.bashrc" } }],
      }),
      new HumanMessage({
        content: [
          {
            type: "file",
            source_type: "base64",
            mime_type: "application/pdf",
            data: base64("%PDF"),
            metadata: { filename: "report.pdf" },
          },
        ],
      }),
      new HumanMessage({
        content: [{ type: "image", mimeType: "image/png", data: base64("png"), metadata: { filename: "report.pdf" } }],
      }),
      new HumanMessage({ content: [{ type: "image", mimeType: "image/png", data: base64("unnamed") }] }),
      new HumanMessage({
        content: [{ type: "file", source_type: "url", url: "https://example.com/x.csv", mime_type: "text/csv" }],
      }),
      new AIMessage({ content: [{ type: "text", text: "no attachments from the model" }] }),
    ];
    const found = conversationAttachments(messages);
    expect(found.map((attachment) => [attachment.name, attachment.mimeType, attachment.bytes().toString()])).toEqual([
      ["bashrc", "text/csv", "a,b"],
      ["report.pdf", "application/pdf", "%PDF"],
      ["report-2.pdf", "image/png", "png"],
      ["attachment-4.png", "image/png", "unnamed"],
    ]);
  });

  it("ignores anything that is not a message list", () => {
    expect(conversationAttachments(undefined)).toEqual([]);
    expect(conversationAttachments({ messages: [] })).toEqual([]);
  });
});
