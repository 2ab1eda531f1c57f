import { describe, expect, it } from "vitest";
import type { ShellWord } from "../command/shell-line-types.js";
import { attachedValue, isRepositoryConfig, writtenWords } from "./write-targets.js";

const words = (...values: Array<string | undefined>): ShellWord[] =>
  values.map((value, index) => ({
    ...(value === undefined ? { why: "$x" } : { value }),
    text: value ?? "$x",
    start: index,
    end: index,
  }));
const written = (...values: Array<string | undefined>) =>
  writtenWords(words(...values)).map((word) => word.value ?? "«dynamic»");

describe("writtenWords", () => {
  it("names the files known programs write", () => {
    expect(written("tee", "-a", "x", "y")).toEqual(["x", "y"]);
    expect(written("cp", "-r", "a", "b")).toEqual(["a", "b"]);
    expect(written("cp", "-t..", "x")).toEqual(["..", "x"]);
    expect(written("mv", "--target-directory=d", "x")).toEqual(["d", "x"]);
    expect(written("dd", "if=a", "of=b")).toEqual(["b"]);
    expect(written("sort", "-o", "out.txt", "in.txt")).toEqual(["out.txt"]);
    expect(written("sed", "-i", "s/a/b/", "f")).toEqual(["s/a/b/", "f"]);
    expect(written("cat", "a")).toEqual([]);
    expect(written("cp", undefined, "b")).toEqual(["«dynamic»", "b"]);
  });

  it("reads glued path options, and leaves other glued options alone", () => {
    const value = (text: string, program = "x") => attachedValue(words(text)[0]!, program);
    expect(value("-t..")).toBe("..");
    expect(value("-o../x")).toBe("../x");
    expect(value("--output=../x")).toBe("../x");
    expect(value("of=../x", "dd")).toBe("../x");
    expect(value("-F/")).toBeUndefined();
    expect(value("-d,")).toBeUndefined();
  });
});

describe("isRepositoryConfig", () => {
  it("sees .git segments in any case, .gitattributes and .gitmodules anywhere, and relative writes inside .git", () => {
    const ws = "/ws";
    expect(isRepositoryConfig(".git/config", [ws], ws)).toBe(true);
    expect(isRepositoryConfig("a/.GIT/hooks/x", [ws], ws)).toBe(true);
    expect(isRepositoryConfig("sub/.gitattributes", [ws], ws)).toBe(true);
    expect(isRepositoryConfig(".gitmodules", [ws], ws)).toBe(true);
    expect(isRepositoryConfig("config", [ws, "/ws/repo/.git"], ws)).toBe(true);
    expect(isRepositoryConfig("notes.git.txt", [ws], ws)).toBe(false);
    expect(isRepositoryConfig(".gitignore", [ws], ws)).toBe(false);
  });
});
