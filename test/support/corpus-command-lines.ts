// The command lines of the real-world corpus: every line of the fenced bash/sh/shell/console blocks of its SKILL.md
// files, read in place (lines continued with `\` joined into one). Left out: `<placeholder>` lines, comments, console output, and multi-line
// fragments (a line bash itself cannot parse alone: `for x in a; do`, the start of a here-document, ...).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { CORPUS_SKILLS_DIR } from "./shared-paths.js";

/** One distinct command line and the first SKILL.md it appears in (relative to the corpus skills folder). */
export interface CorpusCommandLine {
  line: string;
  skill: string;
}

/** How the corpus lines were chosen: counts of what was left out and why. */
export interface CorpusCommandLines {
  lines: CorpusCommandLine[];
  leftOut: { placeholder: number; continued: number; fragment: number; duplicate: number };
}

function skillFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...skillFiles(full));
    else if (entry === "SKILL.md") found.push(full);
  }
  return found.sort();
}

const FENCE = /^\s*(```|~~~)\s*([A-Za-z]*)/;
const LANGUAGES = new Set(["bash", "sh", "shell", "console"]);
const PLACEHOLDER = /<[A-Za-z][A-Za-z0-9_ .:/|-]*>/;

/** Lines of the shell blocks of one SKILL.md (`\`-continued lines joined, console prompts stripped). */
function blockLines(text: string, counts: CorpusCommandLines["leftOut"]): string[] {
  const lines: string[] = [];
  let language: string | undefined;
  let pending = "";
  for (const raw of text.replace(/\r/g, "").split("\n")) {
    const fence = FENCE.exec(raw);
    if (fence) {
      language = language === undefined ? (fence[2] ?? "").toLowerCase() : undefined;
      pending = "";
      continue;
    }
    if (language === undefined || !LANGUAGES.has(language)) continue;
    if (/\\\s*$/.test(raw)) {
      pending += `${raw.replace(/\\\s*$/, "").trim()} `;
      counts.continued += 1;
      continue;
    }
    let line = `${pending}${raw.trim()}`.trim();
    pending = "";
    if (language === "console") {
      if (!line.startsWith("$ ")) continue;
      line = line.slice(2).trim();
    } else if (line.startsWith("$ ")) line = line.slice(2).trim();
    if (line === "" || line.startsWith("#")) continue;
    if (PLACEHOLDER.test(line)) {
      counts.placeholder += 1;
      continue;
    }
    lines.push(line);
  }
  return lines;
}

/** Every distinct command line of the corpus's shell blocks (see the file comment for what is left out). */
export function corpusCommandLines(): CorpusCommandLines {
  const leftOut = { placeholder: 0, continued: 0, fragment: 0, duplicate: 0 };
  const seen = new Set<string>();
  const lines: CorpusCommandLine[] = [];
  for (const file of skillFiles(CORPUS_SKILLS_DIR)) {
    for (const line of blockLines(readFileSync(file, "utf8"), leftOut)) {
      if (seen.has(line)) {
        leftOut.duplicate += 1;
        continue;
      }
      seen.add(line);
      lines.push({ line, skill: path.relative(CORPUS_SKILLS_DIR, file) });
    }
  }
  const complete = lines.filter(({ line }) => {
    const check = spawnSync("bash", ["--noprofile", "--norc", "-n", "-c", line], { stdio: "ignore" });
    if (check.status === 0) return true;
    leftOut.fragment += 1;
    return false;
  });
  return { lines: complete, leftOut };
}
