import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Writes `files` (relative path -> content) under a fresh temp folder and returns its path. */
export function writeTree(files: Record<string, string>, prefix = "skillgraph-registry-"): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** A minimal valid SKILL.md. */
export function skillMd(name: string, description: string, body = `# ${name}\n\nInstructions for ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}
