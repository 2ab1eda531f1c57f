import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkedOptions } from "../../io/checked-options.js";
import { booleanFlag, flagsHelp, flagsSchema, flagsUsage, readFlags, stringFlag } from "../../io/flag-table.js";
import { formatCommandHelp } from "../../output/command-help.js";
import { UsageError } from "../../io/usage-error.js";
import { chatFlags, chatOptionsSchema, readChatFlags } from "./chat-options.js";

describe("chat's flag table", () => {
  it("a flag added as one line shows in the parser, the help text and the schema", () => {
    const table = { ...chatFlags, maxTurns: stringFlag("N", "stop after N model calls", { default: "no limit" }) };
    const { values } = readFlags(table, ["--max-turns", "7", "-p", "hi"]);
    expect(values).toEqual({ maxTurns: "7", prompt: "hi" });
    const text = formatCommandHelp("chat", flagsUsage("chat", table), {
      summary: "",
      options: flagsHelp(table),
      examples: [],
    });
    expect(text).toContain("[--max-turns N]");
    expect(text).toMatch(/--max-turns N +stop after N model calls \(default: no limit\)/);
    const schema = flagsSchema(table);
    expect(schema.shape.maxTurns.description).toBe("stop after N model calls");
    expect(schema.parse(values).maxTurns).toBe("7");
    // The real table does not know the flag: parseArgs refuses it.
    expect(() => readChatFlags(["--max-turns", "7"])).toThrow(/--max-turns/);
  });

  it("a boolean flag is false unless given, and a checked schema types its value", () => {
    const table = {
      dryRun: booleanFlag("only say what would run"),
      limit: stringFlag("N", "at most N", {
        schema: z.coerce.number().int().positive().optional(),
      }),
    };
    const schema = flagsSchema(table);
    expect(schema.parse(readFlags(table, []).values)).toEqual({ dryRun: false, limit: undefined });
    expect(schema.parse(readFlags(table, ["--dry-run", "--limit", "3"]).values)).toEqual({ dryRun: true, limit: 3 });
    expect(schema.safeParse(readFlags(table, ["--limit", "0"]).values).success).toBe(false);
  });

  it("every flag of chat is in its help and its schema, described the same", () => {
    const help = flagsHelp(chatFlags);
    const shape = flagsSchema(chatFlags).shape;
    for (const [key, spec] of Object.entries(chatFlags)) {
      expect(help.some((option) => option.description === spec.description)).toBe(true);
      expect(shape[key as keyof typeof shape].description).toBe(spec.description);
    }
    expect(help.map((option) => option.flags)).toContain("--base-url URL");
  });

  it("checks the combinations and derives the timeout in milliseconds", () => {
    const check = (args: string[]) => checkedOptions(chatOptionsSchema, readChatFlags(args));
    expect(check(["--base-url", "http://x/v1", "--timeout", "1.5"])).toMatchObject({
      baseURL: "http://x/v1",
      timeoutMs: 1500,
      skills: [],
      approveAll: false,
    });
    expect(() => check(["--ephemeral", "--session", "a"])).toThrow(UsageError);
    expect(() => check(["--approve-all", "--deny-all"])).toThrow("--approve-all and --deny-all exclude each other");
    expect(() => check(["--timeout", "soon"])).toThrow("--timeout must be a positive number of seconds, not 'soon'");
    expect(() => check(["--json"])).toThrow("--json needs -p PROMPT");
  });
});
