import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Temporary roots made by this process, removed when it exits (one `exit` listener for all of them). */
const liveRoots = new Set<string>();
let listening = false;

function removeLiveRoots(): void {
  for (const root of liveRoots) rmSync(root, { recursive: true, force: true });
  liveRoots.clear();
}

/**
 * The default workspace root: a private folder under the system temporary folder (`$TMPDIR/skillgraph-shell-XXXXXX`,
 * mode 0700), made the first time a workspace is needed, never before. It belongs to the runtime: `dispose()` removes
 * it, and so does the process's `exit` (a `SIGKILL` cannot be caught: pass a `workspaceRoot` with an age limit
 * where that matters).
 */
export class TemporaryWorkspaceRoot {
  private made: string | undefined;
  private removed = false;

  /** The folder, made now if it was not yet (after {@link remove}, made again at the same path when still free). */
  get path(): string {
    if (this.made !== undefined && this.removed) {
      try {
        // not recursive: whatever another user put at that path meanwhile (a folder, a link) makes this fail
        mkdirSync(this.made, { mode: 0o700 });
        this.removed = false;
        liveRoots.add(this.made);
      } catch {
        this.made = undefined;
      }
    }
    if (this.made === undefined) {
      this.made = mkdtempSync(path.join(os.tmpdir(), "skillgraph-shell-"));
      this.removed = false;
      liveRoots.add(this.made);
      if (!listening) {
        listening = true;
        process.once("exit", removeLiveRoots);
      }
    }
    return this.made;
  }

  /** Removes the folder and everything in it; the next use makes it again. */
  remove(): void {
    if (this.made === undefined || this.removed) return;
    rmSync(this.made, { recursive: true, force: true });
    liveRoots.delete(this.made);
    this.removed = true;
  }
}
