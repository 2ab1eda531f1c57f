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
 * Watches the folders of a registry's sources with Node's recursive `fs.watch` and calls `reload` once events have
 * been quiet for `debounceMs`. A source without folders to watch, a folder that does not exist (yet), or a watcher
 * that fails (unsupported platform, inotify limit, folder deleted) falls back to polling: a reload every `pollMs`,
 * which only stats files. Nothing here keeps the process alive.
 */
export class SourceWatcher {
  private watchers: FSWatcher[] = [];
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

  /** Starts watching (call after the first load, when npm sources know their folders). */
  start(): void {
    let needPoll = false;
    for (const source of this.sources) {
      const roots = source.watchRoots?.();
      if (!roots || roots.length === 0) {
        // Code sources never change; anything else without folders is polled.
        if (source.kind !== "code") needPoll = true;
        continue;
      }
      for (const root of roots) if (!this.watchFolder(root)) needPoll = true;
    }
    if (needPoll) this.startPolling();
  }

  private watchFolder(root: string): boolean {
    if (!existsSync(root)) return false;
    try {
      const watcher = watch(root, { recursive: true, persistent: false }, () => this.schedule());
      watcher.on("error", () => {
        // The folder went away or the platform gave up: fall back to polling, which sees the folder return.
        watcher.close();
        this.schedule();
        this.startPolling();
      });
      this.watchers.push(watcher);
      return true;
    } catch {
      return false;
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
        if (this.again) {
          this.again = false;
          this.run();
        }
      });
  }

  /** Stops every watcher and timer. */
  close(): void {
    this.closed = true;
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    this.timer = undefined;
    this.poll = undefined;
  }
}
