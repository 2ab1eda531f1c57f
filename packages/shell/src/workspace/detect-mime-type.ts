import path from "node:path";
import { isBinaryContent } from "../internal/core.js";

const signatures: Array<{ bytes: number[]; offset?: number; mime: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], mime: "image/png" },
  { bytes: [0xff, 0xd8, 0xff], mime: "image/jpeg" },
  { bytes: [0x47, 0x49, 0x46, 0x38], mime: "image/gif" },
  { bytes: [0x25, 0x50, 0x44, 0x46], mime: "application/pdf" },
  { bytes: [0x1f, 0x8b], mime: "application/gzip" },
  { bytes: [0x42, 0x5a, 0x68], mime: "application/x-bzip2" },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], mime: "application/x-xz" },
  { bytes: [0x49, 0x44, 0x33], mime: "audio/mpeg" },
  { bytes: [0x4f, 0x67, 0x67, 0x53], mime: "audio/ogg" },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], mime: "application/x-executable" },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], mime: "application/vnd.sqlite3" },
];

const zipByExtension: Record<string, string> = {
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".jar": "application/java-archive",
  ".epub": "application/epub+zip",
};

const textByExtension: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".json": "application/json",
  ".html": "text/html",
  ".htm": "text/html",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/plain",
  ".py": "text/x-python",
  ".sh": "application/x-sh",
  ".css": "text/css",
};

/**
 * MIME type of a file from its first bytes (magic numbers), refined by the extension for ZIP-based and text formats.
 * @param fileName the file's name (extension used as a hint)
 * @param head the file's first bytes (512 are plenty; a character cut at the end is fine)
 * @example detectMimeType("a.png", pngBytes) // "image/png"
 */
export function detectMimeType(fileName: string, head: Uint8Array): string {
  const extension = path.extname(fileName).toLowerCase();
  for (const signature of signatures) {
    const offset = signature.offset ?? 0;
    if (signature.bytes.every((byte, index) => head[offset + index] === byte)) return signature.mime;
  }
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)
    return zipByExtension[extension] ?? "application/zip";
  if (head[0] === 0x52 && head[1] === 0x49 && head[2] === 0x46 && head[3] === 0x46) {
    const kind = Buffer.from(head.subarray(8, 12)).toString("latin1");
    if (kind === "WEBP") return "image/webp";
    if (kind === "WAVE") return "audio/wav";
  }
  if (!isBinaryContent(head, { complete: false })) return textByExtension[extension] ?? "text/plain";
  return "application/octet-stream";
}
