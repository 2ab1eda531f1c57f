import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidOptionsError } from "./invalid-options-error.js";
import { parseOptions } from "./parse-options.js";

const schema = z.object({
  loadModes: z.record(z.string(), z.enum(["turn", "once"], { error: "must be turn or once" })).optional(),
  tools: z.array(z.string({ error: "must be a string" })).default([]),
  onWrite: z.union([z.boolean(), z.object({ every: z.number().int({ error: "must be an integer" }) })]).optional(),
});

function problem(input: unknown, prefix?: string): InvalidOptionsError {
  try {
    parseOptions(schema, input, prefix);
  } catch (error) {
    if (InvalidOptionsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidOptionsError");
}

describe("parseOptions", () => {
  it("returns the parsed options with their defaults", () => {
    expect(parseOptions(schema, {})).toEqual({ tools: [] });
  });

  it("names the option at fault by its path, with the schema's message and the value given", () => {
    expect(problem({ loadModes: { pdf: "always" } })).toMatchObject({
      option: "loadModes.pdf",
      value: "always",
      message: expect.stringContaining("must be turn or once"),
    });
    expect(problem({ tools: ["a", 3] })).toMatchObject({ option: "tools[1]", value: 3 });
  });

  it("reports the field inside the one union branch whose shape the value took", () => {
    expect(problem({ onWrite: { every: 1.5 } })).toMatchObject({ option: "onWrite.every", value: 1.5 });
  });

  it("puts the path under a prefix, and calls the object itself 'options'", () => {
    expect(problem({ tools: [1] }, "shell")).toMatchObject({ option: "shell.tools[0]" });
    expect(problem("nope")).toMatchObject({ option: "options" });
  });
});
