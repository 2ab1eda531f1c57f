import { describe, expect, it } from "vitest";
import { shellResultLines, writtenFiles } from "./shell-result-lines.js";

const result = (fields: Record<string, unknown>) =>
  JSON.stringify({ status: "ok", exit_code: 0, signal: null, ...fields });

describe("shellResultLines", () => {
  it("shows the exit code, the first lines of output with the full size, and the files written", () => {
    const stdout = Array.from({ length: 8 }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
    const lines = shellResultLines(
      "run_skill_script",
      result({ stdout, stdout_bytes: 5000, output_files: [{ path: "out/report.md", size: 412 }] }),
    );
    expect(lines).toEqual([
      "[tool] run_skill_script -> exit 0, 5000 bytes of output",
      "  | line 1",
      "  | line 2",
      "  | line 3",
      "  | line 4",
      "  | line 5",
      "  | … 8 lines shown of 5000 bytes in all",
      "  wrote out/report.md (412 bytes)",
    ]);
  });

  it("says why a command was refused or failed", () => {
    expect(
      shellResultLines(
        "shell",
        JSON.stringify({ status: "refused", reason: "denied", message: "'sudo' is denied by the policy" }),
      ),
    ).toEqual(["[tool] shell refused (denied): 'sudo' is denied by the policy"]);
    expect(
      shellResultLines(
        "run_skill_script",
        result({
          status: "failed",
          exit_code: 2,
          stderr: "\nerror: no such file in/x.csv\nmore\n",
          empty_outputs_of_failed_command: ["out/r.txt"],
        }),
      ),
    ).toEqual([
      "[tool] run_skill_script failed (exit 2): error: no such file in/x.csv",
      "  left empty (not results): out/r.txt",
    ]);
    expect(shellResultLines("shell", result({ status: "timed_out", exit_code: null, signal: "SIGKILL" }))![0]).toBe(
      "[tool] shell timed out (signal SIGKILL)",
    );
  });

  it("says under the status which limit the command met", () => {
    const limit =
      "killed: the command went over its memory limit (256 MiB); the kernel's out-of-memory killer ended a process of it";
    expect(
      shellResultLines(
        "shell",
        result({
          status: "failed",
          exit_code: 1,
          stdout: "started\n",
          stderr: "unshare: sigprocmask unblock failed: Invalid argument\n",
          limit_exceeded: [limit],
        }),
      ),
    ).toEqual([
      "[tool] shell failed (exit 1): unshare: sigprocmask unblock failed: Invalid argument",
      `  ${limit}`,
      "  | started",
    ]);
  });

  it("leaves other tools and non-JSON content to the plain line", () => {
    expect(shellResultLines("read_skill", result({}))).toBeUndefined();
    expect(shellResultLines("shell", "Tool 'shell' is not available now")).toBeUndefined();
    expect(writtenFiles("shell", result({ output_files: [{ path: "out/a.txt", size: 1 }] }))).toEqual(["out/a.txt"]);
  });
});
