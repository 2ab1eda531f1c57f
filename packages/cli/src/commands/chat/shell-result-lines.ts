// How a shell tool's result (run_skill_script, shell) shows in chat: what happened, why it was refused or failed, the
// first lines of its output with the full size (as Ollama shows a script's output), and the files it wrote.

/** The shell tools whose JSON results are shown this way. */
const SHELL_TOOLS = new Set(["run_skill_script", "shell"]);

/** Lines of output shown under a shell tool's activity line. */
export const PREVIEW_LINES = 5;
const PREVIEW_CHARS = 200;

interface ShellResult {
  status: string;
  reason?: string;
  message?: string;
  exit_code?: number | null;
  signal?: string | null;
  stdout?: string;
  stderr?: string;
  stdout_bytes?: number;
  stderr_bytes?: number;
  output_files?: Array<{ path: string; size: number }>;
  empty_outputs_of_failed_command?: string[];
  attachments_skipped?: Array<{ name: string; reason: string }>;
  /** The limits of its cgroup the command met, as sentences (from the kernel's counters). */
  limit_exceeded?: string[];
}

/** The result's JSON when `name` is a shell tool and `content` one of its results, else undefined. */
export function parseShellResult(name: string, content: string): ShellResult | undefined {
  if (!SHELL_TOOLS.has(name)) return undefined;
  try {
    const parsed = JSON.parse(content) as unknown;
    return parsed && typeof parsed === "object" && typeof (parsed as ShellResult).status === "string"
      ? (parsed as ShellResult)
      : undefined;
  } catch {
    return undefined;
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first lines of a stream, indented, with what was left out. */
function preview(text: string, bytes: number | undefined): string[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  if (body === "") return [];
  const lines = body.split("\n");
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `  | ${clip(line, PREVIEW_CHARS)}`);
  const size = bytes ?? Buffer.byteLength(text);
  if (lines.length > PREVIEW_LINES || size > Buffer.byteLength(text))
    shown.push(`  | … ${plural(lines.length, "line")} shown of ${size} bytes in all`);
  return shown;
}

/**
 * The activity lines of a shell tool's result: a refusal with its reason and message; a failure with its exit code (or
 * signal) and first error line; else the exit code and output size; then the limits it met, the first lines of output
 * and the files written to `out/`. Undefined when the content is not a shell tool result.
 */
export function shellResultLines(name: string, content: string): string[] | undefined {
  const result = parseShellResult(name, content);
  if (!result) return undefined;
  if (result.status === "refused")
    return [`[tool] ${name} refused (${result.reason ?? "refused"}): ${clip(result.message ?? "", 300)}`];
  if (result.status === "running") return [`[tool] ${name} started an interactive session`];
  const how =
    result.signal != null
      ? `signal ${result.signal}`
      : result.exit_code == null
        ? result.status
        : `exit ${result.exit_code}`;
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  const lines: string[] = [];
  if (result.status === "ok") {
    lines.push(`[tool] ${name} -> ${how}, ${result.stdout_bytes ?? Buffer.byteLength(stdout)} bytes of output`);
    lines.push(...preview(stdout, result.stdout_bytes));
  } else {
    const firstError = stderr.split("\n").find((line) => line.trim() !== "") ?? "";
    lines.push(
      `[tool] ${name} ${result.status.replace("_", " ")} (${how})${firstError ? `: ${clip(firstError, 200)}` : ""}`,
    );
    lines.push(...preview(stdout, result.stdout_bytes));
  }
  // said right under the status: an exit code or a stderr line alone does not say the command met a limit
  lines.splice(1, 0, ...(result.limit_exceeded ?? []).map((message) => `  ${message}`));
  const files = result.output_files ?? [];
  if (files.length > 0) lines.push(`  wrote ${files.map((file) => `${file.path} (${file.size} bytes)`).join(", ")}`);
  if (result.empty_outputs_of_failed_command?.length)
    lines.push(`  left empty (not results): ${result.empty_outputs_of_failed_command.join(", ")}`);
  for (const skipped of result.attachments_skipped ?? []) lines.push(`  attachment ${skipped.name} ${skipped.reason}`);
  return lines;
}

/** The `out/` files a shell tool's result reports (relative to the workspace). */
export function writtenFiles(name: string, content: string): string[] {
  return (parseShellResult(name, content)?.output_files ?? []).map((file) => file.path);
}
