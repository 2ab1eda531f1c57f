// Every option name the docs give exists: each row of an options table in docs/*.md names a key of the zod schema that
// checks those options, and each flag written after `skillgraph COMMAND` is a flag of that command's help (which the
// command's flag table generates). A renamed or removed option fails here until the docs say the new name.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { turnSchedulerOptionsSchema } from "../../packages/checkpoint/src/turn/turn-scheduler-options.js";
import { commands } from "../../packages/cli/src/run-cli.js";
import { renderOptionsSchema } from "../../packages/core/src/prompt/resolve-render-options.js";
import { skillsRuntimeOptionsSchema } from "../../packages/langgraph/src/options/skills-runtime-options.js";
import { REPO_ROOT } from "../support/shared-paths.js";

const DOCS = join(REPO_ROOT, "docs");

/** The schema each doc's options tables describe, in the order the tables come. */
const TABLE_SCHEMAS: Record<string, z.ZodType[]> = {
  "interceptor.md": [skillsRuntimeOptionsSchema],
  "prompt-rendering.md": [renderOptionsSchema],
  "sessions.md": [turnSchedulerOptionsSchema],
};

/** The object inside optional, default, pipe (transform) and readonly wrappers; undefined for other schemas. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } }).def;
  if (def.type === "object") return (schema as unknown as z.ZodObject).shape;
  const inner = def.type === "pipe" ? def.in : def.innerType;
  return inner ? objectShape(inner) : undefined;
}

/** Whether `budget.maxChars` (a dotted path) is a key of the schema's objects. */
function hasOption(schema: z.ZodType, path: string): boolean {
  let current: z.ZodType | undefined = schema;
  for (const key of path.split(".")) {
    current = current === undefined ? undefined : objectShape(current)?.[key];
    if (current === undefined) return false;
  }
  return true;
}

/** The option names of each `| option | default | meaning |` table: the backticked names of its first column. */
function optionTables(markdown: string): string[][] {
  const tables: string[][] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    if (!/^\| *option *\|/i.test(lines[index]!)) continue;
    const names: string[] = [];
    for (let row = index + 2; row < lines.length && lines[row]!.startsWith("|"); row++) {
      const first = lines[row]!.split("|")[1] ?? "";
      names.push(...[...first.matchAll(/`([A-Za-z][\w.]*)`/g)].map((match) => match[1]!));
    }
    tables.push(names);
  }
  return tables;
}

/** Each `skillgraph COMMAND ... --flag` written in a doc (code spans and code blocks), as [command, flag, doc]. */
function commandFlags(markdown: string, doc: string): Array<[string, string, string]> {
  const found: Array<[string, string, string]> = [];
  const code = [...markdown.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((match) => match[0]);
  for (const text of code)
    for (const line of text.split("\n"))
      for (const invocation of line.matchAll(/\bskillgraph ([a-z]+)((?: +[^\s|;&`]+)*)/g)) {
        const name = invocation[1]!;
        if (!(name in commands)) continue;
        for (const flag of (invocation[2] ?? "").matchAll(/(?:^| )(--[a-z][a-z-]*)/g))
          found.push([name, flag[1]!, doc]);
      }
  return found;
}

const docs = readdirSync(DOCS).filter((name) => name.endsWith(".md"));

describe("option names in docs/", () => {
  it.each(docs)("%s: every options table row names a key of its schema", (doc) => {
    const tables = optionTables(readFileSync(join(DOCS, doc), "utf8"));
    const schemas = TABLE_SCHEMAS[doc] ?? [];
    expect(tables.length, `options tables in ${doc} (add the schema to TABLE_SCHEMAS)`).toBe(schemas.length);
    tables.forEach((names, index) => {
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((name) => !hasOption(schemas[index]!, name))).toEqual([]);
    });
  });

  it("every flag written after `skillgraph COMMAND` is one of that command's flags", async () => {
    const flagsOf = new Map<string, Set<string>>();
    for (const [name, entry] of Object.entries(commands)) {
      const command = await entry.load();
      const written = command.help.options.flatMap((option) => [...option.flags.matchAll(/--[a-z][a-z-]*/g)]);
      flagsOf.set(name, new Set(["--help", ...written.map((match) => match[0])]));
    }
    const unknown: string[] = [];
    let seen = 0;
    for (const doc of docs)
      for (const [name, flag] of commandFlags(readFileSync(join(DOCS, doc), "utf8"), doc)) {
        seen++;
        if (!flagsOf.get(name)!.has(flag)) unknown.push(`${doc}: skillgraph ${name} ${flag}`);
      }
    expect(seen).toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it("a name that is not an option is caught", () => {
    expect(hasOption(renderOptionsSchema, "budget.maxChars")).toBe(true);
    expect(hasOption(renderOptionsSchema, "budget.maxWords")).toBe(false);
    expect(hasOption(skillsRuntimeOptionsSchema, "searchLimit")).toBe(true);
    expect(commandFlags("`skillgraph chat --no-such-flag -p x`", "x.md")).toEqual([["chat", "--no-such-flag", "x.md"]]);
  });
});
