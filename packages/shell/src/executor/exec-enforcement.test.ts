import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BubblewrapUnavailableError } from "../errors/bubblewrap-unavailable-error.js";
import { deniedProgramPaths, findExecEnforcementHelpers, guardedCommand } from "./exec-enforcement.js";

function tree(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "exec-enforcement-unit-"));
  mkdirSync(path.join(root, "bin"));
  mkdirSync(path.join(root, "share"));
  writeFileSync(path.join(root, "bin", "multi"), "#!/bin/sh\n", { mode: 0o755 });
  symlinkSync("multi", path.join(root, "bin", "denied-link")); // a denied name that is another program's link
  writeFileSync(path.join(root, "bin", "denied"), "#!/bin/sh\n", { mode: 0o755 });
  linkSync(path.join(root, "bin", "denied"), path.join(root, "bin", "other-name")); // the same file, another name
  writeFileSync(path.join(root, "share", "denied"), "completion script, not a program\n", { mode: 0o644 });
  mkdirSync(path.join(root, "lib"));
  writeFileSync(path.join(root, "lib", "denied-elf"), Buffer.from("\x7fELF rest", "latin1"), { mode: 0o644 });
  symlinkSync("nowhere", path.join(root, "bin", "denied-dangling"));
  return root;
}

describe("deniedProgramPaths", () => {
  it("stubs every program file a denied name reaches, its hard links, at the sandbox path", () => {
    const root = tree();
    const visible = [{ host: root, sandbox: "/usr", stable: false }];
    expect(deniedProgramPaths(["denied", "denied-link", "denied-elf", "denied-dangling"], visible)).toEqual([
      "/usr/bin/denied",
      "/usr/bin/multi", // the link's target: every name of a multi-call program is denied with it
      "/usr/bin/other-name",
      "/usr/lib/denied-elf", // no exec bit, but ld.so would load it
    ]);
  });

  it("stubs nothing for no denied program, and nothing outside the visible folders", () => {
    const root = tree();
    expect(deniedProgramPaths([], [{ host: root, sandbox: "/usr", stable: false }])).toEqual([]);
    const outside = mkdtempSync(path.join(os.tmpdir(), "exec-enforcement-outside-"));
    writeFileSync(path.join(outside, "target"), "#!/bin/sh\n", { mode: 0o755 });
    symlinkSync(path.join(outside, "target"), path.join(root, "bin", "escapes"));
    expect(deniedProgramPaths(["escapes"], [{ host: root, sandbox: "/usr", stable: false }])).toEqual([]);
  });

  it("sees a folder's new files on each call unless it is stable", () => {
    const root = tree();
    const visible = [{ host: root, sandbox: "/opt", stable: false }];
    expect(deniedProgramPaths(["late"], visible)).toEqual([]);
    writeFileSync(path.join(root, "bin", "late"), "#!/bin/sh\n", { mode: 0o755 });
    expect(deniedProgramPaths(["late"], visible)).toEqual(["/opt/bin/late"]);
  });
});

describe("exec-guard helpers", () => {
  it("refuses enforcement, naming the build script, when the helpers are not built", () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "exec-enforcement-nobuild-"));
    expect(() => findExecEnforcementHelpers("/usr/bin/bwrap", empty)).toThrow(BubblewrapUnavailableError);
    expect(() => findExecEnforcementHelpers("/usr/bin/bwrap", empty)).toThrow(/not built \(run 'sh .*build\.sh'/);
  });

  it("puts the command after exec-guard's exec roots", () => {
    expect(guardedCommand({ exec: ["/usr", "/skill"] }, ["/usr/bin/bash", "-c", "x"])).toEqual([
      "/.skillgraph-exec-guard",
      "--exec",
      "/usr",
      "--exec",
      "/skill",
      "--",
      "/usr/bin/bash",
      "-c",
      "x",
    ]);
  });

  it("under an allow list, maps folders and lets single files run", () => {
    expect(guardedCommand({ exec: ["/skill"], map: ["/usr"], files: ["/usr/bin/bash"] }, ["bash"])).toEqual([
      "/.skillgraph-exec-guard",
      "--exec",
      "/skill",
      "--map",
      "/usr",
      "--exec-file",
      "/usr/bin/bash",
      "--",
      "bash",
    ]);
  });
});
