import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";

/** The baseline: what a loader without caching does — list every folder, read and parse every SKILL.md, keep bodies. */
export async function naiveLoad(root: string): Promise<Array<{ name: unknown; description: unknown; body: string }>> {
  const out: Array<{ name: unknown; description: unknown; body: string }> = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "SKILL.md") {
        const text = await readFile(full, "utf8");
        const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
        let data: Record<string, unknown> = {};
        try {
          data = (parse(match?.[1] ?? "") as Record<string, unknown>) ?? {};
        } catch {
          data = {};
        }
        out.push({ name: data.name, description: data.description, body: match?.[2] ?? text });
      }
    }
  };
  await walk(root);
  return out;
}
