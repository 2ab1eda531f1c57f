import { describe, expect, it } from "vitest";
import { commandLayers } from "./command-layers.js";
import { DYNAMIC_WORD } from "./dynamic-word.js";

const opaque = (...argv: string[]) => !commandLayers(argv).ok;

describe("options whose value is a program are opaque", () => {
  it.each([
    ["tar", "-xf", "a.tar", "--to-command=sh"],
    ["tar", "-I", "sh", "-xf", "a.tar"],
    ["tar", "--checkpoint=1", "--checkpoint-action=exec=sh", "-cf", "x.tar", "."],
    ["rsync", "-e", "sh -c x", "a", "b:c"],
    ["rsync", "--rsync-path=x", "a", "b:c"],
    ["sort", "--compress-program=x", "f"],
    ["zip", "-TT", "x", "a.zip", "f"],
    ["ssh", "-o", "ProxyCommand=x", "host"],
    ["scp", "-S", "x", "a", "b:c"],
    ["man", "-P", "x", "ls"],
    ["env", "nice", "tar", "--use-compress-program=x", "-xf", "a.tar"],
    ["tar", "-xf", `${DYNAMIC_WORD}$x`],
  ])("%s %s", (...argv) => {
    expect(opaque(...argv)).toBe(true);
  });

  it.each([
    ["tar", "-xzf", "a.tar.gz"],
    ["tar", "-cf", "a.tar", "dir"],
    ["rsync", "-av", "a/", "b/"],
    ["sort", "-k2", "-n", "f"],
    ["zip", "-r", "a.zip", "dir"],
    ["man", "ls"],
  ])("leaves %s %s alone", (...argv) => {
    expect(opaque(...argv)).toBe(false);
  });
});
