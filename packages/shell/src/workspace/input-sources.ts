import type { ArtifactStore } from "../artifacts/artifact-store.js";
import { splitRelativePath, withConfinedFolder } from "../internal/core.js";
import type { ConversationAttachment } from "./conversation-attachments.js";
import type { StagedFile } from "./thread-workspaces.js";

/** One declared input of a call: where the bytes come from and where they go in the workspace. */
export interface InputSpec {
  /** `skill://<skill>/<path>`, `workspace://<path>`, `artifact://<name>[@<version>]` or `attachment://<name>`. */
  from: string;
  /** Workspace path to stage it at. @default `in/<last segment of from>` */
  to?: string;
}

/** What {@link resolveInputs} needs to reach each source. */
export interface InputContext {
  threadId: string;
  workspaceDir: string;
  /** Skills whose files may be read: the running skill and the loaded ones, by name. */
  skillDir(name: string): string | undefined;
  artifacts: ArtifactStore | undefined;
  attachments: readonly ConversationAttachment[];
  /** Largest single input. */
  maxBytes: number;
}

/** At most this many declared inputs per call. */
export const MAX_INPUTS = 32;

const fail = (message: string) => ({ ok: false as const, message });

/**
 * Resolves declared inputs to files to stage, reading each source race-free (skill and workspace files through the
 * confined folder, never following a symlink out). Nothing is staged here; the first bad input fails the call.
 */
export async function resolveInputs(
  inputs: readonly InputSpec[],
  context: InputContext,
): Promise<{ ok: true; files: StagedFile[] } | { ok: false; message: string }> {
  if (inputs.length > MAX_INPUTS) return fail(`at most ${MAX_INPUTS} inputs per call, not ${inputs.length}`);
  const files: StagedFile[] = [];
  for (const input of inputs) {
    const match = /^(skill|workspace|artifact|attachment):\/\/(.+)$/.exec(String(input.from));
    if (!match)
      return fail(`input '${String(input.from)}' must start with skill://, workspace://, artifact:// or attachment://`);
    const [, scheme, rest] = match as unknown as [string, string, string];
    const lastSegment = rest.split("/").pop()?.replace(/@\d+$/, "") ?? "input";
    const to = input.to ?? `in/${lastSegment}`;
    let bytes: Uint8Array;
    if (scheme === "skill" || scheme === "workspace") {
      let folder = context.workspaceDir;
      let relative = rest;
      if (scheme === "skill") {
        const slash = rest.indexOf("/");
        const skillName = slash === -1 ? rest : rest.slice(0, slash);
        const dir = context.skillDir(skillName);
        if (!dir) return fail(`input '${input.from}': skill '${skillName}' is not loaded (or has no folder)`);
        folder = dir;
        relative = slash === -1 ? "" : rest.slice(slash + 1);
      }
      const parts = splitRelativePath(relative);
      if (!parts.ok || parts.names.length === 0)
        return fail(`input '${input.from}': ${parts.ok ? "names no file" : parts.message}`);
      const read = await withConfinedFolder(folder, (confined) =>
        confined.readFile(relative, { maxBytes: context.maxBytes, followInsideLinks: scheme === "skill" ? 8 : 0 }),
      );
      if (!read.ok) return fail(`input '${input.from}': ${read.message}`);
      bytes = read.bytes;
    } else if (scheme === "artifact") {
      if (!context.artifacts)
        return fail(
          `input '${input.from}': no artifact store is configured (give the graph a store, or the hook an artifacts.store)`,
        );
      const versioned = /^([^@]+)(?:@(\d+))?$/.exec(rest);
      const loaded = versioned
        ? await context.artifacts.load(
            context.threadId,
            versioned[1] as string,
            versioned[2] === undefined ? undefined : Number(versioned[2]),
          )
        : undefined;
      if (!loaded) return fail(`input '${input.from}': no such artifact in this thread`);
      bytes = loaded.bytes;
    } else {
      const attachment = context.attachments.find((candidate) => candidate.name === rest);
      if (!attachment) {
        const known = context.attachments.map((candidate) => candidate.name).join(", ") || "none";
        return fail(`input '${input.from}': no attachment of that name in the conversation (attached: ${known})`);
      }
      bytes = attachment.bytes;
    }
    if (bytes.byteLength > context.maxBytes)
      return fail(`input '${input.from}' is ${bytes.byteLength} bytes, over the ${context.maxBytes}-byte limit`);
    files.push({ path: to, content: bytes });
  }
  return { ok: true, files };
}
