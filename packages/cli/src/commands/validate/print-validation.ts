import { basename } from "node:path";
import type { CliIO } from "../../io/cli-io.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { ValidationResult } from "./validation-result.js";

/** The results as text: one line per skill (✓ ok / ✗ invalid), its diagnostics under it, then the counts. */
export function printValidation(results: readonly ValidationResult[], io: CliIO): void {
  const style = createStyle(io.color);
  for (const result of results) {
    const mark = result.valid ? style.green("✓ ok") : style.red("✗ invalid");
    io.stdout.write(
      `${mark} ${style.bold(terminalSafeLine(result.name ?? basename(result.path)))} ${style.dim(terminalSafeLine(result.path))}\n`,
    );
    for (const diagnostic of result.diagnostics) {
      const tag =
        diagnostic.severity === "error"
          ? style.red(`error: ${diagnostic.code}`)
          : style.yellow(`warning: ${diagnostic.code}`);
      io.stdout.write(`    ${tag}  ${terminalSafeLine(diagnostic.message)}\n`);
    }
  }
  const invalid = results.filter((result) => !result.valid).length;
  io.stdout.write(`${results.length - invalid} valid, ${invalid} invalid\n`);
}
