import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../command/bash-parser.js";
import { walkShellLine } from "../command/walk-shell-line.js";
import { clusterValues, runTimeArgument } from "./run-time-words.js";

beforeAll(async () => {
  await loadBashParser();
});

/** The verdict on the last word of a one-command line: why it is run-time, or "known". */
const verdict = (line: string, program = "cp") => {
  const words = walkShellLine(line, { WORKSPACE: "/ws" }).commands.at(-1)!.words;
  return runTimeArgument(words.at(-1)!, program) ?? "known";
};

describe("clusterValues", () => {
  it("yields every value a cluster of short options may carry glued", () => {
    expect(clusterValues("-vt..")).toEqual(["t..", ".."]);
    expect(clusterValues("-uo../x")).toEqual(["o../x", "../x"]);
    expect(clusterValues("-n5")).toEqual(["5"]);
    expect(clusterValues("--target=..")).toEqual([]);
    expect(clusterValues("x")).toEqual([]);
    expect(clusterValues(`-${"v".repeat(100)}t..`)).toHaveLength(32);
  });
});

describe("runTimeArgument (no sandbox)", () => {
  it("treats every expansion, ~ and brace expansion as run-time", () => {
    for (const line of ["cp x ${PWD%/*}/y", "cp x ~/../y", "d=..; cp x $d/y", 'cp x "$(pwd)"/y', "cp x {a,b}"])
      expect(verdict(line)).not.toBe("known");
  });

  it("lets globs that stay below their folder pass, and not those that may climb", () => {
    expect(verdict("cp *.md d")).toBe("known");
    expect(verdict('cp x "$WORKSPACE"/out/*.csv')).toBe("known");
    expect(verdict("cp x d*/y")).toBe("a glob");
    expect(verdict("cp x d*/../../y")).toBe("a glob");
    expect(verdict("cp x .*/y")).toBe("a glob");
    expect(verdict("cp x d/.?")).toBe("a glob");
    expect(verdict("cp x *..*/y")).toBe("a glob");
  });

  it("asks about a glob whose folder holds a symlink leading out, once the folder is listed", () => {
    const words = walkShellLine("cp x out/*.txt", {}).commands[0]!.words;
    const listed: string[] = [];
    const leadsOut = (folder: string) => (listed.push(folder), folder === "out/");
    expect(runTimeArgument(words[2]!, "cp", leadsOut)).toMatch(/symlink/);
    expect(runTimeArgument(words[2]!, "cp", () => false)).toBeUndefined();
    expect(listed).toEqual(["out/"]);
  });

  it("exempts programs that open no file named by an argument", () => {
    expect(verdict("echo ${PWD%/*}", "echo")).toBe("known");
    expect(verdict("rm ${PWD%/*}/x", "rm")).not.toBe("known");
  });
});
