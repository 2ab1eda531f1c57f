/** A one-line "still working" indicator on a TTY stream; a no-op elsewhere. */
export interface Spinner {
  /** Shows the spinner with `label` (restarts the elapsed time). */
  start(label: string): void;
  /** Removes the spinner line, if shown. */
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A spinner written to `stream` only when it is a TTY (never into files or pipes), redrawn every 100 ms with the
 * elapsed seconds, erased before anything else is written.
 */
export function createSpinner(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  options: { enabled?: boolean } = {},
): Spinner {
  const enabled = options.enabled ?? stream.isTTY === true;
  let timer: NodeJS.Timeout | undefined;
  let shown = false;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (shown) stream.write("\r\u001b[2K");
    shown = false;
  };
  return {
    start(label) {
      if (!enabled) return;
      stop();
      const started = Date.now();
      let frame = 0;
      const draw = () => {
        const seconds = Math.floor((Date.now() - started) / 1000);
        stream.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${label}${seconds > 0 ? ` ${seconds}s` : ""}`);
        shown = true;
      };
      draw();
      timer = setInterval(draw, 100);
      timer.unref();
    },
    stop,
  };
}
