import { createHash } from "node:crypto";

/** A file the user attached to the conversation (a base64 `file` or `image` content block of a human message). */
export interface ConversationAttachment {
  /** File name, sanitised to one path segment (`report.pdf`, or `attachment-2.png` when the block names none). */
  name: string;
  mimeType: string;
  /** Size in bytes, from the base64 text's length: known before anything is decoded. */
  size: number;
  /** Decodes the bytes (only once the size was checked against the call's budget). */
  bytes(): Buffer;
  /** sha256 of the base64 text (staged once per thread). */
  sha256: string;
}

/** Decoded size of a base64 text, from its length and padding alone. */
export function base64Size(data: string): number {
  const trimmed = data.replace(/\s+/g, "");
  const padding = trimmed.endsWith("==") ? 2 : trimmed.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

/** At most this many attachments are looked at per call, each at most this large. */
export const MAX_ATTACHMENTS = 32;
export const MAX_ATTACHMENT_BYTES = 16 * 1024 * 1024;

const extensionOf: Record<string, string> = {
  "application/pdf": "pdf",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "text/csv": "csv",
  "text/plain": "txt",
  "text/markdown": "md",
  "application/json": "json",
};

/** Whether a message of the graph state is the user's (a HumanMessage, or a plain `{ role: "user" }` object). */
export function isHumanMessage(message: unknown): boolean {
  if (!message || typeof message !== "object") return false;
  const record = message as { type?: unknown; role?: unknown; _getType?: () => string; getType?: () => string };
  const type =
    typeof record.getType === "function"
      ? record.getType()
      : typeof record._getType === "function"
        ? record._getType()
        : (record.type ?? record.role);
  return type === "human" || type === "user";
}

/** A safe single path segment for a file name coming from a message (`attachment-<index>.<ext>` when it has none). */
export function safeAttachmentName(raw: unknown, index: number, mimeType: string): string {
  const base = typeof raw === "string" ? (raw.split(/[\\/]/).pop() ?? "") : "";
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "")
    .slice(0, 100);
  return cleaned !== "" ? cleaned : `attachment-${index}.${extensionOf[mimeType] ?? "bin"}`;
}

/**
 * The files attached to human messages of the conversation, from LangChain content blocks in either shape:
 * `{ type: "file" | "image", data, mimeType, metadata?: { filename } }` (v1) or `{ type, source_type: "base64", data,
 * mime_type }` (legacy). Nothing is decoded here: each has its size from the base64 length, and the caller decides what
 * fits (see `planAttachmentStaging`). Blocks beyond {@link MAX_ATTACHMENTS} are left out; URLs and provider file ids
 * are not fetched.
 * @param messages the graph state's messages
 */
export function conversationAttachments(messages: unknown): ConversationAttachment[] {
  if (!Array.isArray(messages)) return [];
  const found: ConversationAttachment[] = [];
  const names = new Set<string>();
  for (const message of messages) {
    if (!isHumanMessage(message)) continue;
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (found.length >= MAX_ATTACHMENTS || !block || typeof block !== "object") continue;
      const record = block as Record<string, unknown>;
      if (record.type !== "file" && record.type !== "image") continue;
      const data =
        typeof record.data === "string" ? record.data : typeof record.base64 === "string" ? record.base64 : undefined;
      if (data === undefined || (record.source_type !== undefined && record.source_type !== "base64")) continue;
      const size = base64Size(data);
      const mimeType = String(record.mimeType ?? record.mime_type ?? "application/octet-stream");
      const metadata = (record.metadata ?? {}) as Record<string, unknown>;
      let name = safeAttachmentName(
        metadata.filename ?? metadata.name ?? record.filename ?? record.name,
        found.length + 1,
        mimeType,
      );
      for (let copy = 2; names.has(name); copy += 1) name = name.replace(/(\.[^.]*)?$/, `-${copy}$1`);
      names.add(name);
      found.push({
        name,
        mimeType,
        size,
        bytes: () => Buffer.from(data, "base64"),
        sha256: createHash("sha256").update(data).digest("hex"),
      });
    }
  }
  return found;
}
