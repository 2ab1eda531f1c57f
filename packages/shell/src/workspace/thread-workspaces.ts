import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdir, readdir, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { SkillgraphError, splitRelativePath, withConfinedFolder } from "../internal/core.js";
import { TemporaryWorkspaceRoot } from "./temporary-workspace-root.js";

/** A file to put into a workspace before a command runs. */
export interface StagedFile {
  /** Path relative to the workspace, e.g. `in/data.csv`. */
  path: string;
  content: string | Uint8Array;
}

/** Thread id used when the RunnableConfig carries none. */
export const NO_THREAD = "__no_thread__";

/** Prefix of the one-call thread keys a call without a thread id runs under (see {@link isOneCallThread}). */
const ONE_CALL_PREFIX = "__one_call__:";

/** A fresh thread key for one call without a thread id: its workspace is its own and is removed after the call. */
export function oneCallThread(): string {
  return `${ONE_CALL_PREFIX}${randomUUID()}`;
}

/** Whether a thread key was made by {@link oneCallThread}. */
export function isOneCallThread(threadId: string | undefined): boolean {
  return threadId !== undefined && threadId.startsWith(ONE_CALL_PREFIX);
}

/** How often, at most, the age limit sweeps the root. */
const SWEEP_EVERY_MS = 60_000;

/** At most this many files per staging call. */
export const MAX_STAGED_FILES = 64;
/** At most this many bytes per staging call, all files together. */
export const MAX_STAGED_BYTES = 16 * 1024 * 1024;

/**
 * Names that configure a program instead of being its data: any dot-file or dot-folder (`.git/config`, `.gitconfig`,
 * `.bashrc`, `.npmrc`, `.local/...`), Python's startup hooks and path files. Staging them is refused: with only
 * `git status` or `python3 -m json.tool` granted, such a file would turn the grant into running any code.
 */
export function configuresAProgram(name: string): boolean {
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

/** Options of {@link ThreadWorkspaces}. */
export interface ThreadWorkspacesOptions {
  /** Remove a thread's workspace once it was not used for this long (swept when another workspace is used). */
  maxAgeMs?: number;
}

/**
 * One folder per thread under a root: `<root>/thread-<hash of thread id>/` with `in/`, `out/` and `.tmp/`. The folder
 * name is a hash, so a thread id can never name a path. Files are staged race-free (see `openConfinedFolder` in core):
 * a command that swaps a folder for a symlink meanwhile gets the write refused, never redirected. Without a root, a
 * private temporary one is made on first use and removed by {@link ThreadWorkspaces.removeAll} or at process exit.
 */
export class ThreadWorkspaces {
  private readonly temporary: TemporaryWorkspaceRoot | undefined;
  private readonly fixedRoot: string | undefined;
  private lastSweep = 0;

  /**
   * @param root absolute folder holding every thread's workspace; undefined for a private temporary one
   * @param options the age limit
   */
  constructor(
    root: string | undefined,
    private readonly options: ThreadWorkspacesOptions = {},
  ) {
    this.fixedRoot = root;
    this.temporary = root === undefined ? new TemporaryWorkspaceRoot() : undefined;
  }

  /** The folder holding the workspaces (a temporary root is made now if it was not yet). */
  get root(): string {
    return this.fixedRoot ?? (this.temporary as TemporaryWorkspaceRoot).path;
  }

  /** Whether the root is the runtime's own temporary folder (removed on dispose). */
  get ownsRoot(): boolean {
    return this.temporary !== undefined;
  }

  /** Host path of a thread's workspace (whether or not it exists yet). */
  pathFor(threadId: string | undefined): string {
    const digest = createHash("sha256")
      .update(threadId ?? NO_THREAD)
      .digest("hex")
      .slice(0, 24);
    return path.join(this.root, `thread-${digest}`);
  }

  /** Creates the thread's workspace if needed, marks it used now, and returns its path. */
  async ensure(threadId: string | undefined): Promise<string> {
    const dir = this.pathFor(threadId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await withConfinedFolder(dir, async (workspace) => {
      for (const folder of ["out", "in", ".tmp"]) {
        const made = await workspace.makeFolder(folder);
        if (!made.ok) throw new StagingRefusedError(`workspace folder ${made.message}`);
      }
    });
    const now = new Date();
    await utimes(dir, now, now);
    await this.sweep(dir);
    return dir;
  }

  /** Removes workspaces unused for longer than the age limit (at most once a minute; never `keep`). */
  private async sweep(keep: string): Promise<void> {
    const maxAgeMs = this.options.maxAgeMs;
    if (maxAgeMs === undefined || Date.now() - this.lastSweep < Math.min(SWEEP_EVERY_MS, maxAgeMs)) return;
    this.lastSweep = Date.now();
    const entries = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || !/^thread-[0-9a-f]{24}$/.test(entry.name)) continue;
      const dir = path.join(this.root, entry.name);
      if (dir === keep) continue;
      const info = await stat(dir).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > maxAgeMs) await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Writes files into the thread's workspace. Every path is checked before anything is written: relative, inside,
   * no dot-file or program configuration file, at most {@link MAX_STAGED_FILES} files and {@link MAX_STAGED_BYTES}.
   * @throws StagingRefusedError naming the file and the reason
   */
  async stage(threadId: string | undefined, files: readonly StagedFile[]): Promise<string[]> {
    if (threadId === undefined)
      throw new StagingRefusedError(
        "cannot stage files without a thread id: a call without one runs in a workspace of its own, removed after it",
      );
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

  /** Writes one file the runtime itself names (e.g. under `.tmp/`), race-free like staging, without the name checks. */
  async writeRuntimeFile(threadId: string, file: StagedFile): Promise<void> {
    await withConfinedFolder(await this.ensure(threadId), async (workspace) => {
      const result = await workspace.writeFile(file.path, file.content);
      if (!result.ok) throw new StagingRefusedError(`cannot write ${result.message}`);
    });
  }

  /**
   * Makes a run's own folder, `runs/run-<random>`, race-free like staging (trpc-agent-go's `RUN_DIR`); returns its host
   * path.
   */
  async makeRunFolder(threadId: string): Promise<string> {
    const dir = await this.ensure(threadId);
    const relative = `runs/run-${randomBytes(6).toString("hex")}`;
    await withConfinedFolder(dir, async (workspace) => {
      const made = await workspace.makeFolder(relative);
      if (!made.ok) throw new StagingRefusedError(`run folder ${made.message}`);
    });
    return path.join(dir, relative);
  }

  /**
   * Removes a run's folder (from {@link makeRunFolder}) if the run left it empty, race-free: `runs/` is reached from the
   * workspace's descriptor without following a symlink, and `rmdir` neither follows the last name nor removes a folder
   * with entries. A run that wrote something keeps its folder; a workspace removed meanwhile is no error.
   */
  async removeRunFolderIfEmpty(runDir: string): Promise<void> {
    if (runDir === "") return;
    const workspace = path.dirname(path.dirname(runDir));
    await withConfinedFolder(workspace, (folder) => folder.removeEmptyFolder(`runs/${path.basename(runDir)}`)).catch(
      () => undefined,
    );
  }

  /** Deletes a thread's workspace (every thread's when no id). */
  async remove(threadId?: string): Promise<void> {
    if (threadId !== undefined) await rm(this.pathFor(threadId), { recursive: true, force: true });
    else await this.removeAll();
  }

  /** Deletes every workspace; a temporary root is removed with them (a new one is made on next use). */
  async removeAll(): Promise<void> {
    if (this.temporary) this.temporary.remove();
    else await rm(this.root, { recursive: true, force: true });
  }
}
