// Files a user attached by reference to an artifact (`{ type: "file", file_id: "artifact://report.csv" }`, as
// trpc-agent-go stages uploads kept in its artifact service): found in the conversation, then staged into
// `in/attachments/` like any attachment, once per thread, never refusing the model's command.
import { existsSync } from "node:fs";
import path from "node:path";
import { isHumanMessage, safeAttachmentName } from "./conversation-attachments.js";
import { resolveInputs, type InputContext, type StagedInput } from "./input-sources.js";
import type { SkippedAttachment } from "./attachment-staging.js";
import type { StagedFile } from "./thread-workspaces.js";

/** A human message's file block naming an artifact instead of carrying bytes. */
export interface ArtifactAttachment {
  /** `artifact://<name>[@<version>]`. */
  ref: string;
  /** File name under `in/attachments/`: the block's filename, else the artifact's name. */
  name: string;
}

/** The artifact id of a file block (`file_id`, `fileId`, or a legacy `source_type: "id"` block's `id`), if any. */
function artifactIdOf(record: Record<string, unknown>): string | undefined {
  const id = record.file_id ?? record.fileId ?? (record.source_type === "id" ? record.id : undefined);
  return typeof id === "string" && /^artifact:\/\/[^/]+$/.test(id) ? id : undefined;
}

/** The file blocks of human messages that reference an artifact, each named once (`-2` suffixes on clashes). */
export function artifactAttachments(messages: unknown): ArtifactAttachment[] {
  if (!Array.isArray(messages)) return [];
  const found: ArtifactAttachment[] = [];
  const names = new Set<string>();
  for (const message of messages) {
    const content = isHumanMessage(message) ? (message as { content?: unknown }).content : undefined;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!block || typeof block !== "object" || (block as { type?: unknown }).type !== "file") continue;
      const record = block as Record<string, unknown>;
      const ref = artifactIdOf(record);
      if (ref === undefined) continue;
      const metadata = (record.metadata ?? {}) as Record<string, unknown>;
      const artifactName = ref.slice("artifact://".length).replace(/@\d+$/, "");
      let name = safeAttachmentName(metadata.filename ?? record.filename ?? artifactName, found.length + 1, "");
      for (let copy = 2; names.has(name); copy += 1) name = name.replace(/(\.[^.]*)?$/, `-${copy}$1`);
      names.add(name);
      found.push({ ref, name });
    }
  }
  return found;
}

/**
 * Loads the artifact attachments not staged before in this thread (or staged and since deleted) from the call's
 * artifact store, within `budgetBytes`; one that cannot be loaded is reported in `skipped` (once) and never fails the
 * call.
 * @param seen the thread's memory of attachments already handled, updated here
 */
export async function stageArtifactAttachments(
  attachments: readonly ArtifactAttachment[],
  seen: Set<string>,
  context: InputContext,
): Promise<{ files: StagedFile[]; staged: StagedInput[]; skipped: SkippedAttachment[] }> {
  const files: StagedFile[] = [];
  const staged: StagedInput[] = [];
  const skipped: SkippedAttachment[] = [];
  let left = context.budgetBytes;
  for (const attachment of attachments) {
    const key = `artifact:${attachment.ref}:${attachment.name}`;
    if (seen.has(`skipped:${key}`)) continue;
    const to = `in/attachments/${attachment.name}`;
    if (seen.has(key) && existsSync(path.join(context.workspaceDir, to))) continue;
    const resolved = await resolveInputs([{ from: attachment.ref, to }], { ...context, budgetBytes: left });
    if (!resolved.ok) {
      seen.add(`skipped:${key}`);
      skipped.push({ name: attachment.name, reason: `not staged: ${resolved.message}` });
      continue;
    }
    seen.add(key);
    files.push(...resolved.files);
    staged.push(...resolved.staged);
    left -= resolved.staged.reduce((sum, input) => sum + input.size, 0);
  }
  return { files, staged, skipped };
}
