import type { ExecutionResult, RunningCommand } from "../executor/executor-types.js";

/** What a poll returns: output since the last poll, and whether the program is still running. */
export interface SessionSnapshot {
  sessionId: string;
  status: "running" | "exited";
  /** stdout and stderr interleaved as they arrived, since the previous poll. */
  output: string;
  /** Bytes of unread output dropped because the buffer was full (the oldest go first). */
  droppedBytes: number;
  /** Set once exited. */
  result?: ExecutionResult;
  /**
   * Set while running when the output has gone quiet on an unfinished line (`Name? `, `Password:`, `[y/N] `): the
   * program is most likely waiting for input, and `prompt` is that line.
   */
  interaction?: { waitingForInput: true; prompt: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A program kept running between tool calls: stdin stays open, output is buffered until polled (bounded; the oldest
 * unread bytes are dropped first).
 */
export class InteractiveSession {
  private chunks: Buffer[] = [];
  private unreadBytes = 0;
  private dropped = 0;
  private lastOutputAt = 0;
  /** The last (unfinished) line of all output so far, for the interaction hint. */
  private tail = "";
  private finished: ExecutionResult | undefined;
  private waiters: Array<() => void> = [];
  /** Settles once the program exited and the end work (`onEnd`) is done. */
  private readonly ended: Promise<ExecutionResult>;

  /**
   * @param id the id the model uses
   * @param running the started command
   * @param maxUnreadBytes unread output kept at most
   * @param onEnd work done once the program exited, before any poll reports it exited (e.g. removing an empty run folder)
   */
  constructor(
    readonly id: string,
    readonly running: RunningCommand,
    private readonly maxUnreadBytes = 65_536,
    onEnd?: () => Promise<void>,
  ) {
    running.onOutput((_stream, chunk) => {
      this.chunks.push(Buffer.from(chunk));
      this.tail = (this.tail + chunk.toString("utf8")).slice(-400);
      this.unreadBytes += chunk.length;
      this.lastOutputAt = Date.now();
      while (this.unreadBytes > this.maxUnreadBytes && this.chunks.length > 0) {
        const first = this.chunks[0] as Buffer;
        const excess = this.unreadBytes - this.maxUnreadBytes;
        if (first.length <= excess) {
          this.chunks.shift();
          this.unreadBytes -= first.length;
          this.dropped += first.length;
        } else {
          this.chunks[0] = first.subarray(excess);
          this.unreadBytes -= excess;
          this.dropped += excess;
        }
      }
      this.wake();
    });
    this.ended = running.result.then(async (result) => {
      await onEnd?.().catch(() => undefined);
      this.finished = result;
      this.wake();
      return result;
    });
  }

  /** True once the program exited. */
  get exited(): boolean {
    return this.finished !== undefined;
  }

  /** Writes text to the program's stdin; false when stdin is closed or the program exited. */
  write(text: string): boolean {
    if (this.finished) return false;
    this.tail = ""; // the prompt was answered; a new one starts after this input
    return this.running.write(text);
  }

  /** Closes stdin (the program sees end of input). */
  closeStdin(): void {
    this.running.closeStdin();
  }

  /**
   * Waits up to `waitMs` for output to arrive and settle (`quietMs` without new bytes) or for the program to exit,
   * then returns and clears the unread output.
   */
  async poll(waitMs: number, quietMs = 150): Promise<SessionSnapshot> {
    const deadline = Date.now() + waitMs;
    while (!this.finished && Date.now() < deadline) {
      if (this.unreadBytes > 0 && Date.now() - this.lastOutputAt >= quietMs) break;
      const remaining = deadline - Date.now();
      await Promise.race([
        new Promise<void>((resolve) => this.waiters.push(resolve)),
        sleep(Math.min(remaining, this.unreadBytes > 0 ? quietMs : remaining)),
      ]);
    }
    if (this.finished) await this.ended;
    const output = Buffer.concat(this.chunks).toString("utf8");
    const snapshot: SessionSnapshot = {
      sessionId: this.id,
      status: this.finished ? "exited" : "running",
      output,
      droppedBytes: this.dropped,
    };
    if (this.finished) snapshot.result = this.finished;
    else {
      const lastLine = this.tail.slice(this.tail.lastIndexOf("\n") + 1).replace(/\r/g, "");
      if (lastLine.trim() !== "" && Date.now() - this.lastOutputAt >= quietMs)
        snapshot.interaction = { waitingForInput: true, prompt: lastLine.slice(-200) };
    }
    this.chunks = [];
    this.unreadBytes = 0;
    this.dropped = 0;
    return snapshot;
  }

  /** Kills the program's whole process tree. */
  async kill(): Promise<void> {
    await this.running.kill();
    await this.ended;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
