import { existsSync } from "node:fs";
import path from "node:path";
import { MAX_ATTACHMENT_BYTES, type ConversationAttachment } from "./conversation-attachments.js";
import { configuresAProgram, type StagedFile } from "./thread-workspaces.js";

/** An attachment that was not staged, and why (reported once per thread, then never tried again). */
export interface SkippedAttachment {
  name: string;
  reason: string;
}

/** What to stage of the conversation's attachments for one call. */
export interface AttachmentStaging {
  files: StagedFile[];
  skipped: SkippedAttachment[];
}

/**
 * The attachments to stage now under `in/attachments/`: those not staged before in this thread (or staged and since
 * deleted), within `budgetBytes` all together. Sizes come from the attachments' metadata, so nothing is decoded
 * before it fits. An attachment that can never be staged (a program's configuration such as `*.pth` or
 * `usercustomize.py`, or over the size cap) is reported once in `skipped` and remembered, so it never fails or
 * repeats in a later call: attachment staging never refuses the model's command.
 * @param seen the thread's memory of attachments already handled (`sha256:name`), updated here
 */
export function planAttachmentStaging(
  attachments: readonly ConversationAttachment[],
  seen: Set<string>,
  workspaceDir: string,
  budgetBytes: number,
): AttachmentStaging {
  const files: StagedFile[] = [];
  const skipped: SkippedAttachment[] = [];
  let left = budgetBytes;
  for (const attachment of attachments) {
    const key = `${attachment.sha256}:${attachment.name}`;
    const skippedKey = `skipped:${key}`;
    if (seen.has(skippedKey)) continue;
    // staged before and still there (a deleted workspace gets them again)
    if (seen.has(key) && existsSync(path.join(workspaceDir, "in", "attachments", attachment.name))) continue;
    const reason = configuresAProgram(attachment.name)
      ? "its name is a program's configuration (a dot-file, *.pth, sitecustomize.py or usercustomize.py)"
      : attachment.size > MAX_ATTACHMENT_BYTES
        ? `it is ${attachment.size} bytes, over the ${MAX_ATTACHMENT_BYTES}-byte limit for one attachment`
        : undefined;
    if (reason !== undefined) {
      seen.add(skippedKey);
      skipped.push({ name: attachment.name, reason: `not staged: ${reason}` });
      continue;
    }
    if (attachment.size > left) {
      // may fit in a later call with fewer other files: not remembered as skipped, but said
      skipped.push({
        name: attachment.name,
        reason: `not staged in this call: ${attachment.size} bytes would exceed the ${budgetBytes}-byte staging budget of one call`,
      });
      continue;
    }
    left -= attachment.size;
    seen.add(key);
    files.push({ path: `in/attachments/${attachment.name}`, content: attachment.bytes() });
  }
  return { files, skipped };
}
