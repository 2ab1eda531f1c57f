import path from "node:path";
import { programName } from "./command-rule.js";
import { readShebang } from "./read-shebang.js";
import { resolveExecutable } from "./resolve-executable.js";

const interpreterByExtension: Record<string, string> = { ".sh": "sh", ".bash": "bash", ".py": "python3", ".mjs": "node", ".js": "node", ".cjs": "node", ".rb": "ruby", ".pl": "perl" };

/** Interpreter argv for a non-executable script (from its `#!` line, else its extension), resolved on the fixed PATH. */
export function interpreterFor(file: string, fixedPath: string): string[] | undefined {
  const shebang = readShebang(file);
  let name: string | undefined;
  let extra: string[] = [];
  if (shebang) {
    const parts = shebang.split(/\s+/).filter(Boolean);
    const program = programName(parts[0] ?? "");
    if (program === "env") {
      const rest = parts.slice(1).filter((part) => part !== "-S");
      name = rest[0];
      extra = rest.slice(1);
    } else {
      name = program;
      extra = parts.slice(1);
    }
  } else name = interpreterByExtension[path.extname(file)];
  if (!name) return undefined;
  const resolved = resolveExecutable(name, fixedPath);
  return resolved ? [resolved, ...extra] : undefined;
}
