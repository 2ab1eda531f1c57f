import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowListAccess, SANDBOX_LOADER_DIR } from "./allow-list-access.js";
import type { ExecEnforcementHelpers } from "./exec-enforcement.js";

const helpers: ExecEnforcementHelpers = {
  guard: "/h/exec-guard",
  stub: "/h/denied-stub",
  gate: "/h/exec-gate",
  broker: "/h/exec-broker",
  shim: "/h/loader-shim",
};

/** A fake /usr: bash, sh -> dash, env, jq, curl (never admitted), and the loader reached through a symlink. */
function fakeUsr(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "allow-list-access-"));
  mkdirSync(path.join(root, "bin"));
  mkdirSync(path.join(root, "lib"));
  for (const name of ["bash", "dash", "env", "jq", "curl"])
    writeFileSync(path.join(root, "bin", name), "#!/bin/sh\n", { mode: 0o755 });
  symlinkSync("dash", path.join(root, "bin", "sh"));
  writeFileSync(path.join(root, "lib", "ld-linux-x86-64.so.2"), Buffer.from("\x7fELF loader", "latin1"), {
    mode: 0o755,
  });
  mkdirSync(path.join(root, "lib64"));
  symlinkSync("../lib/ld-linux-x86-64.so.2", path.join(root, "lib64", "ld-linux-x86-64.so.2"));
  return root;
}

describe("allowListAccess", () => {
  it("lets only the admitted programs, the shells, env and the loader shim run; the folders are only mappable", () => {
    const root = fakeUsr();
    const { bindArgs, access } = allowListAccess({
      helpers,
      allow: { wholly: ["jq"], byArguments: [], rules: [] },
      roots: [{ host: root, sandbox: "/usr", stable: false }],
      skillFolder: "/skill",
      gatedPaths: ["/usr/bin/git"],
      pty: false,
    });
    expect(access.files).toEqual([
      "/usr/bin/bash",
      "/usr/bin/dash", // sh's target
      "/usr/bin/env",
      "/usr/bin/git", // a gate: its starts are judged by the broker
      "/usr/bin/jq",
      "/usr/lib/ld-linux-x86-64.so.2", // where the shim is bound
    ]);
    expect(access.files).not.toContain("/usr/bin/curl");
    expect(access.exec).toEqual(["/skill"]);
    expect(access.map).toEqual(["/usr", SANDBOX_LOADER_DIR]);
    expect(bindArgs).toEqual([
      "--ro-bind",
      path.join(root, "lib", "ld-linux-x86-64.so.2"),
      `${SANDBOX_LOADER_DIR}/ld.so`,
      "--ro-bind",
      helpers.shim,
      "/usr/lib/ld-linux-x86-64.so.2",
    ]);
  });

  it("refuses an allow list with a clear error where the loader shim is not built (off x86-64)", () => {
    const { shim: _absent, ...withoutShim } = helpers;
    const call = () =>
      allowListAccess({
        helpers: withoutShim,
        allow: { wholly: ["jq"], byArguments: [], rules: [] },
        roots: [{ host: fakeUsr(), sandbox: "/usr", stable: false }],
        gatedPaths: [],
        pty: false,
      });
    expect(call).toThrow(/loader-shim', built on x86-64 only/);
    expect(() => call()).toThrow(expect.objectContaining({ code: "bubblewrap-unavailable" }));
  });
});
