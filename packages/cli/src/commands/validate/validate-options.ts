// `skillgraph validate`'s command line: parseArgs reads it, a zod schema checks and types it.
import { parseArgs } from "node:util";
import { SKILL_DIALECTS, type SkillDialect } from "@skillgraph/core";
import { z } from "zod";

const validateFlags = {
  json: { type: "boolean" },
  strict: { type: "boolean" },
  all: { type: "boolean" },
  dialect: { type: "string" },
} as const;

/** The arguments as given (unknown flags are refused here, with parseArgs' own message); flags may come in any order. */
export function readValidateArgs(args: string[]) {
  return parseArgs({ args, options: validateFlags, allowPositionals: true });
}

/** The checked command: a known dialect (default `reference`) and at least one path. */
export const validateOptionsSchema = z
  .object({
    positionals: z.array(z.string()),
    values: z.object({
      json: z.boolean().optional(),
      strict: z.boolean().optional(),
      all: z.boolean().optional(),
      dialect: z.string().optional(),
    }),
  })
  .superRefine(({ positionals, values }, context) => {
    const dialect = values.dialect ?? "reference";
    if (!(SKILL_DIALECTS as readonly string[]).includes(dialect))
      context.addIssue({
        code: "custom",
        message: `--dialect must be one of ${SKILL_DIALECTS.join(", ")}, not '${values.dialect}'`,
      });
    if (positionals.length === 0)
      context.addIssue({
        code: "custom",
        message: values.all ? "--all needs a folder of skills" : "give at least one skill folder, or --all DIR",
      });
  })
  .transform(({ positionals, values }) => ({
    paths: positionals,
    json: values.json === true,
    strict: values.strict === true,
    /** Each path is a folder of skills, not a skill. */
    all: values.all === true,
    dialect: (values.dialect ?? "reference") as SkillDialect,
  }));

/** The checked options of one `skillgraph validate` run. */
export type ValidateOptions = z.output<typeof validateOptionsSchema>;
