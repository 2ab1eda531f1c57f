import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commands } from "../run-cli.js";
import { helpBlocksIn, helpText, withCurrentHelp } from "./help-docs.js";

const read = (doc: string) => readFileSync(fileURLToPath(new URL(`../../../../${doc}`, import.meta.url)), "utf8");

describe("docs/cli.md and docs/chat.md match the help text", () => {
  it.each(["docs/cli.md", "docs/chat.md"])(
    "%s carries the current help (regenerate with packages/cli/src/docs/update-help-docs.ts)",
    async (doc) => {
      const text = read(doc);
      expect(helpBlocksIn(text).length).toBeGreaterThan(0);
      expect(text).toBe(await withCurrentHelp(text));
    },
  );

  it("docs/cli.md documents every command", () => {
    expect(helpBlocksIn(read("docs/cli.md")).sort()).toEqual(Object.keys(commands).sort());
  });

  it("every command's help names each option with a default and gives two examples", async () => {
    for (const name of Object.keys(commands)) {
      const command = await commands[name]!.load();
      expect(command.help.examples.length, name).toBeGreaterThanOrEqual(2);
      for (const option of command.help.options) expect(option.default, `${name} ${option.flags}`).toBeDefined();
      const text = await helpText(name);
      for (const option of command.help.options) expect(text).toContain(option.flags);
    }
  });
});
