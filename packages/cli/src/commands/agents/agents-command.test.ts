// `skillgraph agents`' command line: one table for the flags, one schema for the flags and the positional action.
import { describe, expect, it } from "vitest";
import { checkedOptions } from "../../io/checked-options.js";
import { UsageError } from "../../io/usage-error.js";
import { agentsCommandSchema, readAgentsArgs } from "./agents-command.js";
import { help, usage } from "./index.js";

const command = (...args: string[]) => checkedOptions(agentsCommandSchema, readAgentsArgs(args));

describe("skillgraph agents command line", () => {
  it("types each action with what it needs", () => {
    expect(command("create", "release", "-f", "Agentfile")).toEqual({
      action: "create",
      name: "release",
      file: "Agentfile",
      force: false,
      json: false,
    });
    expect(command("create", "release", "--file", "a.yaml", "--force")).toMatchObject({ file: "a.yaml", force: true });
    expect(command("list", "--json")).toEqual({ action: "list", json: true });
    expect(command("show", "release")).toEqual({ action: "show", name: "release", json: false });
    expect(command("delete", "release")).toEqual({ action: "delete", name: "release", json: false });
  });

  it.each([
    [[], "missing action: create, show, list or delete"],
    [["rename", "a"], "unknown action 'rename'"],
    [["show"], "show needs an agent NAME"],
    [["create", "release"], "create needs -f FILE"],
    [["list", "extra"], "unexpected argument 'extra'"],
    [["delete", "a", "b"], "unexpected argument 'b'"],
  ])("refuses %j with a usage error", (args, message) => {
    expect(() => command(...args)).toThrow(UsageError);
    expect(() => command(...args)).toThrow(message);
  });

  it("refuses an unknown flag", () => {
    expect(() => command("list", "--bogus")).toThrow(/--bogus/);
  });

  it("shows every flag in the usage line and the help", () => {
    expect(usage).toContain("[-f FILE]");
    expect(help.options.map((option) => option.flags)).toEqual(["-f, --file FILE", "--force", "--json"]);
  });
});
