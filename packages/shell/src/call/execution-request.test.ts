// The request stage of the call pipeline, on just the part of the runtime it reads.
import { describe, expect, it } from "vitest";
import { compileApprovalRules } from "../policy/approval-rules.js";
import type { CommandPolicy } from "../policy/command-policy.js";
import { commandRules } from "../policy/policy-options.js";
import type { StagedCall } from "./call-types.js";
import { executionRequest } from "./execution-request.js";

const policy = {
  deny: commandRules("deny", ["sudo", "git push"]),
  fixedPath: "/usr/bin:/bin",
} as unknown as CommandPolicy;

function runtime(approval: string[] = []) {
  return {
    config: {
      approvalRules: compileApprovalRules(approval),
      fixedEnv: { TZ: "UTC" },
      killAfterOutputBytes: 1 << 20,
      killGraceMs: 500,
      maxOutputBytes: 4096,
      maxTimeoutMs: 60_000,
      timeoutMs: 10_000,
    },
    services: { policy },
    threads: {},
  };
}

const call = (input: Record<string, unknown> = {}) =>
  ({
    input: { tool: "shell", command: "git status", ...input },
    plan: { command: "git status", cwd: "/ws" },
    workspaceDir: "/ws",
    runDir: "runs/run-1",
  }) as unknown as StagedCall;

describe("executionRequest", () => {
  it("clamps the timeout to the largest allowed and keeps the call's own below it", () => {
    expect(
      executionRequest(runtime(), call({ timeout_seconds: 600 }), { approved: [], sandboxed: true }),
    ).toMatchObject({ timeoutMs: 60_000 });
    expect(executionRequest(runtime(), call({ timeout_seconds: 5 }), { approved: [], sandboxed: true })).toMatchObject({
      timeoutMs: 5_000,
    });
  });

  it("hands the executor the one-word deny list and the argument-level rules, with what was approved", () => {
    const request = executionRequest(runtime(["npm publish"]), call(), {
      approved: [["npm", "publish"]],
      sandboxed: true,
    });
    if ("ok" in request) throw new Error(request.message);
    expect(request.deniedPrograms).toEqual(["sudo"]);
    expect(request.execRules?.programs).toEqual(["git", "npm"]);
    const start = (argv: string[]) => ({ program: `/usr/bin/${argv[0]}`, names: [argv[0] as string], argv, cwd: "/" });
    expect(request.execRules?.decide(start(["git", "push"]))).toMatchObject({ run: false, needsApproval: false });
    expect(request.execRules?.decide(start(["npm", "publish"]))).toEqual({ run: true });
    expect(request.execRules?.decide(start(["npm", "publish", "--tag", "x"]))).toMatchObject({
      run: false,
      needsApproval: true,
    });
    expect(request.env).toEqual({ TZ: "UTC", RUN_DIR: "runs/run-1" });
  });
});
