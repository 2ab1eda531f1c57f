import { randomUUID } from "node:crypto";
import type { StagedFile } from "./thread-workspaces.js";

/** What a call's `editor_text` adds: a file to stage and the editor variables that "edit" by copying it. */
export interface EditorText {
  /** Written by the runtime under `.tmp/` (a name the model cannot stage). */
  file: StagedFile;
  env: Record<string, string>;
}

/**
 * For programs that open `$EDITOR` on a file and read it back (`git commit`, `crontab -e`, `kubectl edit`): the text
 * is staged under `.tmp/`, and `EDITOR`, `VISUAL` and `GIT_EDITOR` are set to `cp <that file>`, so the program gets the
 * text as if a person had typed and saved it, instead of waiting for a terminal editor until the timeout.
 * @param text the text the editor "saves"
 * @param workspaceView the workspace as the command sees it (`/workspace` in the sandbox)
 */
export function editorText(text: string, workspaceView: string): EditorText {
  const name = `.tmp/editor-text-${randomUUID()}.txt`;
  const target = `${workspaceView}/${name}`;
  const editor = `cp ${/^[A-Za-z0-9_./-]+$/.test(target) ? target : `'${target.replaceAll("'", "'\\''")}'`}`;
  return { file: { path: name, content: text }, env: { EDITOR: editor, VISUAL: editor, GIT_EDITOR: editor } };
}
