import type { SkillCatalog } from "@skillgraph/core";

/** REPL commands that start with `/` and are not skills. */
export const REPL_COMMANDS = ["/skills", "/help", "/exit", "/quit"] as const;

/** What a chat line asks for: a plain message, a message that loads a skill first, or an unknown `$name`/`/name`. */
export type ParsedChatLine =
  | { kind: "message"; text: string }
  | { kind: "invoke"; skill: string; text: string }
  | { kind: "unknown-skill"; name: string; suggestions: string[] };

/**
 * Reads `$skill-name ...` (Codex) or `/skill-name ...` (Claude Code) at the start of a message: that skill is loaded
 * before the model runs, whatever the listing budget. Other text is a plain message.
 */
export function parseChatLine(line: string, skills: SkillCatalog): ParsedChatLine {
  const match = /^[$/]([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return { kind: "message", text: line };
  const name = match[1]!;
  if (skills.get(name)) {
    const rest = (match[2] ?? "").trim();
    return { kind: "invoke", skill: name, text: rest === "" ? `Use the ${name} skill.` : line.trim() };
  }
  // `$5 budget?` or a path like `/tmp/x is full` is an ordinary message; only a lone word reads as a skill name.
  if (line.trim().startsWith("$") && !/^\$[A-Za-z]/.test(line.trim())) return { kind: "message", text: line };
  if (line.trim().startsWith("/") && match[1]!.includes("/")) return { kind: "message", text: line };
  return { kind: "unknown-skill", name, suggestions: skills.search(name, { limit: 3 }).map((hit) => hit.name) };
}

/** Tab completion for the REPL: `$`/`/` followed by skill names, and the `/` commands. */
export function completeChatLine(line: string, skills: SkillCatalog): [string[], string] {
  const match = /^([$/])([^\s]*)$/.exec(line);
  if (!match) return [[], line];
  const [, sigil, partial] = match;
  const names = skills.list().map((skill) => `${sigil}${skill.name}`);
  const all = sigil === "/" ? [...REPL_COMMANDS, ...names] : names;
  const hits = all.filter((entry) => entry.startsWith(`${sigil}${partial}`));
  return [hits.length > 0 ? hits : [], line];
}
