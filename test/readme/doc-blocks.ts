import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One ```ts block of a markdown file. */
export interface DocBlock {
  /** `docs/search.md:6` (the line of the opening fence). */
  id: string;
  file: string;
  line: number;
  /** The block's own code. */
  code: string;
  /** The code to run: with ```ts continued, the file's earlier runnable blocks come first (one program). */
  program: string;
  /** Set for ```ts no-run <reason>: the block is not a program (a signature listing, a value). */
  noRun?: string;
}

const fence = /^```(ts|typescript)(?:[ \t]+(.*))?$/;

/**
 * The TypeScript blocks of a markdown file. Info strings: ```ts (a program, run as pasted), ```ts continued (runs after
 * the file's previous runnable blocks, for docs that build one example step by step), ```ts no-run <reason>.
 */
export function docBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: DocBlock[] = [];
  let runnableSoFar = "";
  for (let index = 0; index < lines.length; index++) {
    const open = fence.exec(lines[index]!);
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !lines[index]!.startsWith("```"); index++) body.push(lines[index]!);
    const info = (open[2] ?? "").trim();
    const code = `${body.join("\n")}\n`;
    const id = `${relative(root, file)}:${start + 1}`;
    if (info.startsWith("no-run")) {
      blocks.push({ id, file, line: start + 1, code, program: code, noRun: info.slice("no-run".length).trim() });
      continue;
    }
    if (info !== "" && info !== "continued")
      throw new Error(`${id}: unknown info string '${info}' (use continued or no-run <reason>)`);
    const program = info === "continued" ? `${runnableSoFar}\n${code}` : code;
    runnableSoFar = program;
    blocks.push({ id, file, line: start + 1, code, program });
  }
  return blocks;
}

/** Every markdown file whose TypeScript blocks are executed: docs/*.md and packages/*\/README.md. */
export function documentedFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(root, "docs", name));
  const readmes = readdirSync(join(root, "packages"))
    .map((name) => join(root, "packages", name, "README.md"))
    .filter((path) => {
      try {
        return readFileSync(path, "utf8").length > 0;
      } catch {
        return false;
      }
    });
  return [...docs.sort(), ...readmes.sort()];
}
