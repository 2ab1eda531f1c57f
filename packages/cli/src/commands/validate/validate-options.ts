// `skillgraph validate`'s command line, declared once: the flag table generates the parser, the help and the schema.
import { SKILL_DIALECTS } from "@skillgraph/core";
import { z } from "zod";
import { booleanFlag, flagsSchema, readFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph validate`, in help order. */
export const validateFlags = {
  all: booleanFlag("treat each DIR as a folder of skills and validate every skill in it"),
  strict: booleanFlag("warnings make a skill invalid too"),
  dialect: stringFlag(
    "NAME",
    "accept another runtime's SKILL.md dialect: tama (tama:, tools:, depends:), spring (allowed_tools), claude (model, argument-hint, ...) or any; its keys and flow-style lists get a dialect-field note, not an error",
    {
      default: "reference (the reference validator's verdicts)",
      schema: z
        .enum(SKILL_DIALECTS, {
          error: (issue) => `--dialect must be one of ${SKILL_DIALECTS.join(", ")}, not '${String(issue.input)}'`,
        })
        .default("reference"),
    },
  ),
  json: booleanFlag("print { results: [{ path (folder), skillFile, name, valid, diagnostics }] }"),
};

/** The arguments as given (unknown flags are refused here, with parseArgs' own message); flags may come in any order. */
export function readValidateArgs(args: string[]) {
  return readFlags(validateFlags, args, { positionals: true });
}

/** The checked command: the flags (a known dialect, default `reference`) and at least one path. */
export const validateOptionsSchema = z
  .object({ positionals: z.array(z.string()), values: flagsSchema(validateFlags) })
  .superRefine(({ positionals, values }, context) => {
    if (positionals.length === 0)
      context.addIssue({
        code: "custom",
        message: values.all ? "--all needs a folder of skills" : "give at least one skill folder, or --all DIR",
      });
  })
  .transform(({ positionals, values }) => ({ ...values, paths: positionals }));

/** The checked options of one `skillgraph validate` run. */
export type ValidateOptions = z.output<typeof validateOptionsSchema>;
