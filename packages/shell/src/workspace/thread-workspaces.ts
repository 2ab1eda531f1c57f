import { createHash } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { SkillgraphError, splitRelativePath, withConfinedFolder } from "../internal/core.js";

/** A file to put into a workspace before a command runs. */
export interface StagedFile {
  /** Path relative to the workspace, e.g. `in/data.csv`. */
  path: string;
  content: string | Uint8Array;
}

/** Thread id used when the RunnableConfig carries none. */
export const NO_THREAD = "__no_thread__";

/** At most this many files per staging call. */
export const MAX_STAGED_FILES = 64;
/** At most this many bytes per staging call, all files together. */
export const MAX_STAGED_BYTES = 16 * 1024 * 1024;

/**
 * Names that configure a program instead of being its data: any dot-file or dot-folder (`.git/config`, `.gitconfig`,
 * `.bashrc`, `.npmrc`, `.local/...`), Python's startup hooks and path files. Staging them is refused: with only
 * `git status` or `python3 -m json.tool` granted, such a file would turn the grant into running any code.
 */
function configuresAProgram(name: string): boolean {
  return name.startsWith(".") || /^(sitecustomize|usercustomize)\.py$/i.test(name) || /\.pth$/i.test(name);
}

const stagingMarker = Symbol.for("skillgraph.error.StagingRefusedError");

/** Why a staging request was refused, naming the file (code `workspace-path-refused`). */
export class StagingRefusedError extends SkillgraphError {
  private readonly [stagingMarker] = true;
  override readonly name = "StagingRefusedError";

  constructor(message: string) {
    super({ code: "workspace-path-refused", message });
  }

  /** True when `error` is a StagingRefusedError from any copy of this package. */
  static override isInstance(error: unknown): error is StagingRefusedError {
    return SkillgraphError.hasMarker(error, stagingMarker);
  }
}

/**
 * One folder per thread under a root: `<root>/<hash of thread id>/` with `in/`, `out/` and `.tmp/`. The folder name
 * is a hash, so a thread id can never name a path. Files are staged race-free (see `openConfinedFolder` in core):
 * a command that swaps a folder for a symlink meanwhile gets the write refused, never redirected.
 */
export class ThreadWorkspaces {
  /** @param root absolute folder holding every thread's workspace */
  constructor(readonly root: string) {}

  /** Host path of a thread's workspace (whether or not it exists yet). */
  pathFor(threadId: string | undefined): string {
    const digest = createHash("sha256")
      .update(threadId ?? NO_THREAD)
      .digest("hex")
      .slice(0, 24);
    return path.join(this.root, `thread-${digest}`);
  }

  /** Creates the thread's workspace if needed and returns its path. */
  async ensure(threadId: string | undefined): Promise<string> {
    const dir = this.pathFor(threadId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await withConfinedFolder(dir, async (workspace) => {
      for (const folder of ["out", "in", ".tmp"]) {
        const made = await workspace.makeFolder(folder);
        if (!made.ok) throw new StagingRefusedError(`workspace folder ${made.message}`);
      }
    });
    return dir;
  }

  /**
   * Writes files into the thread's workspace. Every path is checked before anything is written: relative, inside,
   * no dot-file or program configuration file, at most {@link MAX_STAGED_FILES} files and {@link MAX_STAGED_BYTES}.
   * @throws StagingRefusedError naming the file and the reason
   */
  async stage(threadId: string | undefined, files: readonly StagedFile[]): Promise<string[]> {
    if (files.length > MAX_STAGED_FILES)
      throw new StagingRefusedError(`cannot stage ${files.length} files: at most ${MAX_STAGED_FILES} per call`);
    let total = 0;
    for (const file of files) {
      const parts = splitRelativePath(file.path);
      if (!parts.ok || parts.names.length === 0) {
        throw new StagingRefusedError(
          `cannot stage '${String(file.path)}': ${parts.ok ? "path is empty" : parts.message}; paths must be relative to the workspace and stay inside it`,
        );
      }
      const configuring = parts.names.find(configuresAProgram);
      if (configuring) {
        throw new StagingRefusedError(
          `cannot stage '${file.path}': '${configuring}' is a dot-file or a program's configuration, which could make a granted command run other code`,
        );
      }
      total += typeof file.content === "string" ? Buffer.byteLength(file.content) : file.content.byteLength;
    }
    if (total > MAX_STAGED_BYTES)
      throw new StagingRefusedError(`cannot stage ${total} bytes: at most ${MAX_STAGED_BYTES} per call`);
    const dir = await this.ensure(threadId);
    return withConfinedFolder(dir, async (workspace) => {
      const written: string[] = [];
      for (const file of files) {
        const result = await workspace.writeFile(file.path, file.content);
        if (!result.ok) throw new StagingRefusedError(`cannot stage ${result.message}`);
        written.push(result.path);
      }
      return written;
    });
  }

  /** Deletes a thread's workspace (every thread's when no id). */
  async remove(threadId?: string): Promise<void> {
    await rm(threadId === undefined ? this.root : this.pathFor(threadId), { recursive: true, force: true });
  }
}
