import { isArtifactName } from "./artifact-store.js";

/** How saved files are named as artifacts (outputs manifest `name_template`, `artifact_prefix`). */
export interface ArtifactNaming {
  /** `{name}`, `{stem}` and `{ext}` stand for the file's name, its name without the extension, and the extension. */
  template?: string;
  /** Put before the (templated) name. */
  prefix?: string;
}

/** The artifact name of an output file under `naming`, or why it is not a valid artifact name. */
export function artifactNameFor(
  fileName: string,
  naming: ArtifactNaming,
): { ok: true; name: string } | { ok: false; name: string; message: string } {
  const dot = fileName.lastIndexOf(".");
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const ext = dot > 0 ? fileName.slice(dot + 1) : "";
  const templated =
    naming.template === undefined
      ? fileName
      : naming.template.replace(/\{(name|stem|ext)\}/g, (_all, token: string) =>
          token === "name" ? fileName : token === "stem" ? stem : ext,
        );
  const name = `${naming.prefix ?? ""}${templated}`;
  return isArtifactName(name)
    ? { ok: true, name }
    : {
        ok: false,
        name,
        message: `'${name}' is not a valid artifact name (letters, digits, '.', '_', '-'; at most 128; no '..')`,
      };
}
