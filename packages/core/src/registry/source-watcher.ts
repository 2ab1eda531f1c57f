import { existsSync, watch, type FSWatcher } from "node:fs";
import type { SkillSource } from "../sources/skill-source.js";

/** Settings of a registry's watcher. */
export interface WatchSettings {
  /** Quiet time after the last file event before reloading, in ms. */
  debounceMs: number;
  /** Interval of the stat-based fallback (sources that cannot be watched), in ms. */
  pollMs: number;
}

/**
 * Watches every folder a registry's sources read (each with a plain, non-recursive `fs.watch`, set up synchronously
 * from the folders the last scan visited) and calls `reload` once events have been quiet for `debounceMs`. After
 * each reload the set of watched folders follows the tree (new folders watched, removed ones dropped), and one reload
 * right after setting up covers edits made between the scan and the watchers. (Node's `recursive: true` on Linux
 * sets its watchers up asynchronously with no ready signal, so edits during that setup — seconds for 10 000 folders —
 * would be lost.) A source without folders to watch, a root that does not exist (yet), or a watcher that fails
 * (unsupported platform, inotify limit) falls back to polling: a stat-only reload every `pollMs`. Nothing here keeps
 * the process alive.
 */
export class SourceWatcher {
  private watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;
  private running = false;
  private again = false;

  constructor(
    private readonly sources: readonly SkillSource[],
    private readonly settings: WatchSettings,
    private readonly reload: () => Promise<unknown>,
  ) {}

  /** Starts watching (after the first load, when sources know their folders), then reloads once. */
  start(): void {
    this.follow();
    this.run();
  }

  /** Watches the folders the sources read now; stops watching folders they no longer read. */
  private follow(): void {
    if (this.closed) return;
    const wanted = new Set<string>();
    let needPoll = false;
    for (const source of this.sources) {
      const folders = source.watchRoots?.();
      if (!folders || folders.length === 0) {
        // Code sources never change; anything else without folders (a store) is polled.
        if (source.kind !== "code") needPoll = true;
        continue;
      }
      if (!existsSync(folders[0]!)) needPoll = true;
      for (const folder of folders) wanted.add(folder);
    }
    for (const [folder, watcher] of this.watchers) {
      if (!wanted.has(folder)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (this.watchers.has(folder)) continue;
      if (!this.watchFolder(folder)) needPoll = true;
    }
    if (needPoll) this.startPolling();
  }

  private watchFolder(folder: string): boolean {
    try {
      const watcher = watch(folder, { persistent: false }, () => this.schedule());
      watcher.on("error", () => {
        // The folder went away (or the platform gave up): drop it; the reload this schedules re-follows the tree.
        watcher.close();
        if (this.watchers.get(folder) === watcher) this.watchers.delete(folder);
        this.schedule();
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch {
      return existsSync(folder) ? false : true;
    }
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.settings.debounceMs);
    this.timer.unref();
  }

  private startPolling(): void {
    if (this.poll || this.closed) return;
    this.poll = setInterval(() => this.run(), this.settings.pollMs);
    this.poll.unref();
  }

  /** Reloads; an event arriving while a reload runs triggers one more afterwards (that reload may have missed it). */
  private run(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.reload()
      .catch(() => {})
      .finally(() => {
        this.running = false;
        this.follow();
        if (this.again) {
          this.again = false;
          this.run();
        }
      });
  }

  /** Stops every watcher and timer. */
  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    this.timer = undefined;
    this.poll = undefined;
  }
}
