import { formatCommandHelp } from "../output/command-help.js";
import { commands } from "../run-cli.js";

/** The marker pair around a command's generated help in docs/*.md. */
const BLOCK = /<!-- help:([a-z-]+) -->\n[\s\S]*?<!-- \/help:\1 -->/g;

/** The help text of `skillgraph help NAME`, as printed. */
export async function helpText(name: string): Promise<string> {
  const entry = commands[name];
  if (!entry) throw new Error(`docs name an unknown command '${name}'`);
  const command = await entry.load();
  return formatCommandHelp(name, command.usage, command.help);
}

/**
 * `markdown` with every `<!-- help:NAME -->...<!-- /help:NAME -->` block replaced by the command's current help text in
 * a fenced block. Docs and help cannot drift: a test compares each doc with this result.
 */
export async function withCurrentHelp(markdown: string): Promise<string> {
  const names = [...markdown.matchAll(BLOCK)].map((match) => match[1]!);
  const texts = new Map<string, string>();
  for (const name of names) texts.set(name, await helpText(name));
  return markdown.replace(
    BLOCK,
    (_all, name: string) => `<!-- help:${name} -->\n\`\`\`text\n${texts.get(name)!}\`\`\`\n<!-- /help:${name} -->`,
  );
}

/** The commands a markdown text carries help blocks for. */
export function helpBlocksIn(markdown: string): string[] {
  return [...markdown.matchAll(BLOCK)].map((match) => match[1]!);
}
