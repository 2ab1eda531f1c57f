// One table per command declares its flags once: the parser (node:util parseArgs), the help text and the zod schema
// that checks and types the options are all generated from it, so adding a flag is adding one line to the table.
import { parseArgs } from "node:util";
import { z } from "zod";
import { checkedOptions } from "./checked-options.js";
import type { OptionHelp } from "../output/command-help.js";

/** One flag of a command: how it is read, how help shows it, and the schema that checks its value. */
export interface FlagSpec<Schema extends z.ZodType = z.ZodType> {
  type: "string" | "boolean";
  /** One-letter alias (`-p`). */
  short?: string;
  /** Repeatable (`--skills A --skills B`). */
  multiple?: boolean;
  /** The value's placeholder in help and usage (`TEXT`, `DIR`); string flags only. */
  value?: string;
  description: string;
  /** Shown as "(default: ...)" in help; omit when there is none. */
  default?: string;
  /** Shown without brackets in the usage line (the schema refuses a missing value). */
  required?: boolean;
  /** Checks and types the value (with its default inside). */
  schema: Schema;
}

/** A command's flags, keyed by option name (camelCase; the flag is its kebab-case form: `baseURL` is `--base-url`). */
export type FlagTable = Record<string, FlagSpec>;

/** What a flag's help shows besides its description. */
type HelpExtras = Pick<FlagSpec, "short" | "default" | "required">;

/** An on/off flag: false unless given. */
export function booleanFlag(description: string, extras: HelpExtras = {}) {
  return { type: "boolean", default: "off", ...extras, description, schema: z.boolean().default(false) } as const;
}

/** A flag with one value (`--model NAME`): undefined unless given, or checked by `schema` when one is passed. */
export function stringFlag<Schema extends z.ZodType = z.ZodOptional<z.ZodString>>(
  value: string,
  description: string,
  extras: HelpExtras & { schema?: Schema } = {},
) {
  const { schema, ...help } = extras;
  return {
    type: "string",
    value,
    ...help,
    description,
    schema: (schema ?? z.string().optional()) as Schema,
  } as const;
}

/** A repeatable flag (`--skills DIR`...): every value given, in order (empty when none). */
export function listFlag(value: string, description: string, extras: HelpExtras = {}) {
  return {
    type: "string",
    multiple: true,
    value,
    ...extras,
    description,
    schema: z.array(z.string()).default([]),
  } as const;
}

/** The flag of an option name: `baseURL` is `base-url`, `approveAll` is `approve-all`. */
export function flagName(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** The parseArgs configuration of a table (long names as flags). */
function parserOptions(table: FlagTable) {
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const [key, spec] of Object.entries(table))
    options[flagName(key)] = {
      type: spec.type,
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.multiple ? { multiple: true } : {}),
    };
  return options;
}

/**
 * The arguments as given, keyed by option name (unknown flags are refused here, with parseArgs' own message); the
 * values are not checked yet: pass them to {@link flagsSchema}'s schema.
 */
export function readFlags(
  table: FlagTable,
  args: string[],
  { positionals = false }: { positionals?: boolean } = {},
): { values: Record<string, unknown>; positionals: string[] } {
  const parsed = parseArgs({ args, options: parserOptions(table), allowPositionals: positionals });
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(table)) {
    const value = (parsed.values as Record<string, unknown>)[flagName(key)];
    if (value !== undefined) values[key] = value;
  }
  return { values, positionals: parsed.positionals };
}

/** The zod object a table checks its values with: one key per option, each described by its help line. */
export function flagsSchema<Table extends FlagTable>(
  table: Table,
): z.ZodObject<{ [K in keyof Table]: Table[K]["schema"] }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, spec] of Object.entries(table)) shape[key] = spec.schema.describe(spec.description);
  return z.object(shape) as z.ZodObject<{ [K in keyof Table]: Table[K]["schema"] }>;
}

/**
 * Reads and checks a command's arguments with its table: the typed options (defaults filled in) and the positional
 * arguments. Unknown flags are refused by parseArgs, bad values with a UsageError carrying the schema's message.
 */
export function parseFlags<Table extends FlagTable>(
  table: Table,
  args: string[],
  { positionals = false }: { positionals?: boolean } = {},
): { options: z.output<ReturnType<typeof flagsSchema<Table>>>; positionals: string[] } {
  const read = readFlags(table, args, { positionals });
  return { options: checkedOptions(flagsSchema(table), read.values), positionals: read.positionals };
}

/** How one flag is written in help: `-p, --prompt TEXT`. */
function flagsText(key: string, spec: FlagSpec): string {
  return `${spec.short ? `-${spec.short}, ` : ""}--${flagName(key)}${spec.value ? ` ${spec.value}` : ""}`;
}

/** The options part of a command's help, one entry per flag, in table order. */
export function flagsHelp(table: FlagTable): OptionHelp[] {
  return Object.entries(table).map(([key, spec]) => ({
    flags: flagsText(key, spec),
    description: spec.description,
    ...(spec.default === undefined ? {} : { default: spec.default }),
  }));
}

/** The usage line: `skillgraph NAME` + the positional arguments + every flag, in table order. */
export function flagsUsage(command: string, table: FlagTable, positionals = ""): string {
  const flags = Object.entries(table).map(([key, spec]) => {
    const written =
      spec.short && spec.value
        ? `-${spec.short} ${spec.value}`
        : `--${flagName(key)}${spec.value ? ` ${spec.value}` : ""}`;
    return `${spec.required ? written : `[${written}]`}${spec.multiple ? "..." : ""}`;
  });
  return [`skillgraph ${command}`, ...(positionals ? [positionals] : []), ...flags].join(" ");
}
