// The `outputs` manifest of a call as the model wrote it: snake_case keys, or the Go-style keys skills written for
// trpc-agent-go use (`Globs`, `MaxFiles`, `Save`, ...) and its `save`. Every other key is refused by name, so a manifest
// is never half-read without a word.
import { z } from "zod";
import { outputsFields } from "./command-input-schema.js";
import type { OutputsManifest } from "./command-call-input.js";

/** Other spellings of the manifest's keys (trpc-agent-go's Go field names and its `save`). */
export const OUTPUTS_KEY_ALIASES: Readonly<Record<string, keyof OutputsManifest>> = {
  Globs: "globs",
  MaxFiles: "max_files",
  MaxFileBytes: "max_file_bytes",
  MaxTotalBytes: "max_total_bytes",
  Inline: "inline",
  Save: "save_as_artifacts",
  save: "save_as_artifacts",
  SaveAsArtifacts: "save_as_artifacts",
  NameTemplate: "name_template",
  ArtifactPrefix: "artifact_prefix",
  ForceSave: "force_save",
  Primary: "primary",
};

const manifestSchema = z.strictObject(outputsFields);

/**
 * The manifest with aliases read as their snake_case keys, or a message naming what is wrong: a key that is neither
 * (with the known ones), one key given under two spellings, or a value of the wrong type.
 */
export function normalizeOutputs(
  raw: Readonly<Record<string, unknown>> | undefined,
): { ok: true; outputs: OutputsManifest } | { ok: false; message: string } {
  if (raw === undefined) return { ok: true, outputs: {} };
  const mapped: Record<string, unknown> = {};
  const spelled: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = OUTPUTS_KEY_ALIASES[key] ?? key;
    if (!(name in outputsFields))
      return {
        ok: false,
        message: `outputs: unknown key '${key}' (known: ${Object.keys(outputsFields).join(", ")}; also read: ${Object.keys(OUTPUTS_KEY_ALIASES).join(", ")})`,
      };
    if (name in mapped)
      return { ok: false, message: `outputs: '${spelled[name]}' and '${key}' both set '${name}'; give one` };
    mapped[name] = value;
    spelled[name] = key;
  }
  const parsed = manifestSchema.safeParse(mapped);
  if (parsed.success) return { ok: true, outputs: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, message: `outputs.${issue.path.join(".")}: ${issue.message}` };
}
