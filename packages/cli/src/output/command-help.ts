/** One option in a command's help. */
export interface OptionHelp {
  flags: string;
  description: string;
  /** Shown as "(default: ...)"; omit when there is none. */
  default?: string;
}

/** The help of one command: what it does, every option with its default, and examples. */
export interface CommandHelp {
  summary: string;
  options: OptionHelp[];
  examples: string[];
  /** Extra paragraphs (exit codes, environment). */
  notes?: string[];
}

/** Renders `skillgraph help CMD` / `skillgraph CMD --help`. */
export function formatCommandHelp(name: string, usage: string, help: CommandHelp): string {
  const width = Math.max(...help.options.map((option) => option.flags.length), 10);
  const lines = [`Usage: ${usage}`, "", help.summary, "", "Options:"];
  for (const option of help.options) {
    lines.push(
      `  ${option.flags.padEnd(width)}  ${option.description}${option.default === undefined ? "" : ` (default: ${option.default})`}`,
    );
  }
  lines.push(`  ${"-h, --help".padEnd(width)}  show this help`);
  if (help.notes?.length) lines.push("", ...help.notes);
  lines.push("", "Examples:", ...help.examples.map((example) => `  ${example}`));
  return `${lines.join("\n")}\n`;
}
