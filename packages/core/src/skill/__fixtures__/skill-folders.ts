import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** A temp folder removed after the calling test file; `skill()` writes a skill folder inside it. */
export function useTempFolder(prefix = "skillgraph-skill-"): { root: () => string; skill: (dirName: string, content: string | Buffer, fileName?: string) => string } {
  let root: string | undefined;
  const get = () => (root ??= mkdtempSync(join(tmpdir(), prefix)));
  afterAll(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });
  return {
    root: get,
    skill(dirName, content, fileName = "SKILL.md") {
      const dir = join(get(), dirName);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, fileName), content);
      return dir;
    },
  };
}

/** SKILL.md text from frontmatter lines and a body. */
export function skillText(frontmatter: string, body = "# Instructions\n\nDo the thing."): string {
  return `---\n${frontmatter}\n---\n\n${body}\n`;
}

/** A billion-laughs YAML bomb as a frontmatter (9^depth expansions). */
export function yamlBomb(depth = 9): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < depth; level += 1) {
    const previous = String.fromCharCode(96 + level);
    const current = String.fromCharCode(97 + level);
    lines.push(`${current}: &${current} [${Array.from({ length: 9 }, () => `*${previous}`).join(",")}]`);
  }
  return `name: bomb\ndescription: A YAML bomb.\n${lines.join("\n")}`;
}
