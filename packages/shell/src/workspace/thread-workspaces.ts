import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { SkillgraphError } from "../internal/core.js";
import { hasParentSegment, isInside, realpathOfNearest } from "../policy/confine-path.js";

/** A file to put into a workspace before a command runs. */
export interface StagedFile {
  /** Path relative to the workspace, e.g. `in/data.csv`. */
  path: string;
  content: string | Uint8Array;
}

/** Thread id used when the RunnableConfig carries none. */
export const NO_THREAD = "__no_thread__";

/**
 * One folder per thread under a root: `<root>/<hash of thread id>/` with `in/`, `out/` and `.tmp/`. The folder name
 * is a hash, so a thread id can never name a path.
 */
export class ThreadWorkspaces {
  /** @param root absolute folder holding every thread's workspace */
  constructor(readonly root: string) {}

  /** Host path of a thread's workspace (whether or not it exists yet). */
  pathFor(threadId: string | undefined): string {
    const digest = createHash("sha256").update(threadId ?? NO_THREAD).digest("hex").slice(0, 24);
    return path.join(this.root, `thread-${digest}`);
  }

  /** Creates the thread's workspace if needed and returns its path. */
  async ensure(threadId: string | undefined): Promise<string> {
    const dir = this.pathFor(threadId);
    await mkdir(path.join(dir, "out"), { recursive: true });
    await mkdir(path.join(dir, "in"), { recursive: true });
    await mkdir(path.join(dir, ".tmp"), { recursive: true });
    return dir;
  }

  /**
   * Writes files into the thread's workspace; paths must be relative and stay inside it.
   * @throws SkillgraphError (`workspace-path-refused`) naming the file when a path is absolute or climbs out with `..`
   */
  async stage(threadId: string | undefined, files: readonly StagedFile[]): Promise<string[]> {
    const dir = await this.ensure(threadId);
    const written: string[] = [];
    for (const file of files) {
      const target = path.resolve(dir, file.path);
      if (path.isAbsolute(file.path) || hasParentSegment(file.path) || file.path.includes("\0") || !isInside(dir, target) || target === dir) {
        throw new SkillgraphError({ code: "workspace-path-refused", message: `cannot stage '${file.path}': paths must be relative to the workspace and stay inside it` });
      }
      await mkdir(path.dirname(target), { recursive: true });
      if (!isInside(await realpath(dir), realpathOfNearest(path.dirname(target)))) {
        throw new SkillgraphError({ code: "workspace-path-refused", message: `cannot stage '${file.path}': a folder on the way is a symlink leading outside the workspace` });
      }
      // O_NOFOLLOW: a symlink planted at the target is refused, never followed
      const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
      try {
        await handle.writeFile(file.content);
      } finally {
        await handle.close();
      }
      written.push(path.relative(dir, target));
    }
    return written;
  }

  /** Deletes a thread's workspace (every thread's when no id). */
  async remove(threadId?: string): Promise<void> {
    await rm(threadId === undefined ? this.root : this.pathFor(threadId), { recursive: true, force: true });
  }
}
