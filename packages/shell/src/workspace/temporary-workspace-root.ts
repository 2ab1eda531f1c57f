import { mkdtempSync, rmSync } from "node:fs";
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
 * it, and so does the process's `exit` (a `SIGKILL` cannot be caught; the age limit of the next run sweeps nothing
 * there, so pass `workspaceRoot` where that matters).
 */
export class TemporaryWorkspaceRoot {
  private made: string | undefined;

  /** The folder, made now if it was not yet. */
  get path(): string {
    if (this.made === undefined) {
      this.made = mkdtempSync(path.join(os.tmpdir(), "skillgraph-shell-"));
      liveRoots.add(this.made);
      if (!listening) {
        listening = true;
        process.once("exit", removeLiveRoots);
      }
    }
    return this.made;
  }

  /** Whether the folder was made (and not yet removed). */
  get exists(): boolean {
    return this.made !== undefined;
  }

  /** Removes the folder and everything in it; the next use makes a new one. */
  remove(): void {
    if (this.made === undefined) return;
    rmSync(this.made, { recursive: true, force: true });
    liveRoots.delete(this.made);
    this.made = undefined;
  }
}
