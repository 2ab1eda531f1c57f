// Exec-time rules under bubblewrap: the gate bound over every file of a program with argument-level rules, and the
// host-side broker (native/exec-broker.c) that receives each start's real argv, asks the call's rules, and runs what
// they allow in a fresh sandbox of the same kind. Design: docs/design/exec-enforcement.md.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { ExecTimeRules, ProgramStart, ProgramStartDecision, RefusedStart } from "../policy/exec-time-rules.js";
import { gatedProgramCopy } from "./gated-program-copies.js";
import { programFiles, type ExecEnforcementHelpers } from "./exec-enforcement.js";
import type { VisibleFolder } from "./program-index.js";

/** Where the broker's socket folder is bound inside the sandbox (exec-gate.c connects to `socket` in it). */
export const SANDBOX_BROKER_DIR = "/.skillgraph-broker";

/** Starts through the broker that may run at once, per call. */
const MAX_BROKERED_RUNS = 16;

/** One call's gates: what to bind, and the host folders they need. */
export interface CallGates {
  /** bwrap arguments: the gate over every gated file, the socket folder. */
  bindArgs: string[];
  /** Host folder shown as /tmp in the command's sandbox and in every brokered one (so they see the same files). */
  tmpDir: string;
  socketPath: string;
  /** The broker's program table: `e:PATH` or `s:PATH` of each private copy. */
  programs: string[];
  /** Per sandbox path: index in `programs`, and the names the file has. */
  files: Map<string, { index: number; names: string[] }>;
  /** Removes the host folders. */
  cleanup(): void;
}

/** The gates for one call: every file of each gated program beneath the exec roots, and a private copy of each. */
export function callGates(
  helpers: ExecEnforcementHelpers,
  programs: readonly string[],
  roots: readonly VisibleFolder[],
): CallGates | undefined {
  const files = new Map<string, { index: number; names: string[] }>();
  const table: string[] = [];
  const indexOfCopy = new Map<string, number>();
  for (const name of programs)
    for (const file of programFiles([name], roots)) {
      const known = files.get(file.sandbox);
      if (known) {
        if (!known.names.includes(name)) known.names.push(name);
        continue;
      }
      const copy = gatedProgramCopy(file.host);
      let index = indexOfCopy.get(copy.path);
      if (index === undefined) {
        index = table.length;
        table.push(`${copy.script ? "s" : "e"}:${copy.path}`);
        indexOfCopy.set(copy.path, index);
      }
      files.set(file.sandbox, { index, names: [name] });
    }
  if (files.size === 0) return undefined;
  const socketDir = mkdtempSync(path.join(os.tmpdir(), "skillgraph-broker-"));
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), "skillgraph-tmp-"));
  const bindArgs = [...files.keys()].flatMap((target) => ["--ro-bind", helpers.gate, target]);
  bindArgs.push("--ro-bind", socketDir, SANDBOX_BROKER_DIR);
  return {
    bindArgs,
    tmpDir,
    socketPath: path.join(socketDir, "socket"),
    programs: table,
    files,
    cleanup: () => {
      rmSync(socketDir, { recursive: true, force: true });
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

/** A running broker. */
export interface BrokerProcess {
  /** Ends the broker (it kills what it still runs) and reports the refused starts and its own errors. */
  finish(): Promise<{ refused: RefusedStart[]; errors: string }>;
}

/** Options of {@link startExecBroker}. */
export interface ExecBrokerOptions {
  helpers: ExecEnforcementHelpers;
  gates: CallGates;
  rules: ExecTimeRules;
  /** The argv prefix the command runs under (cgroup, limits): the broker and its runs are bounded the same way. */
  prefix: readonly string[];
  /** `bwrap` and every argument of the command's sandbox up to `--chdir`. */
  sandbox: readonly string[];
  /** exec-guard and its `--exec` roots. */
  guard: readonly string[];
  env: Readonly<Record<string, string>>;
}

function fromHex(hex: string): Buffer {
  return hex === "-" ? Buffer.alloc(0) : Buffer.from(hex, "hex");
}

/** Text, or undefined when the bytes are not UTF-8 (a rule cannot be matched against them faithfully). */
function text(bytes: Buffer): string | undefined {
  const decoded = bytes.toString("utf8");
  return Buffer.from(decoded, "utf8").equals(bytes) ? decoded : undefined;
}

function decideLine(line: string, options: ExecBrokerOptions, refused: RefusedStart[]): string | undefined {
  const [verb, id, program, cwd, , ...args] = line.split(" ");
  if (verb !== "REQ" || id === undefined || program === undefined || cwd === undefined) return undefined;
  const decoded = [program, cwd, ...args].map((hex) => text(fromHex(hex)));
  const [exe, dir, ...argv] = decoded;
  const file = exe === undefined ? undefined : options.gates.files.get(exe);
  let decision: ProgramStartDecision;
  if (decoded.some((part) => part === undefined))
    decision = {
      run: false,
      needsApproval: false,
      reason: "a start whose arguments are not UTF-8 text cannot be judged",
    };
  else if (!file) decision = { run: false, needsApproval: false, reason: `'${exe}' is not a gated program` };
  else {
    const start: ProgramStart = {
      program: exe as string,
      names: file.names,
      argv: argv as string[],
      cwd: dir as string,
    };
    try {
      decision = options.rules.decide(start);
    } catch (error) {
      decision = { run: false, needsApproval: false, reason: `the rules failed: ${String(error)}` };
    }
  }
  if (decision.run && file) return `${id} run ${file.index}\n`;
  const reason = decision.run ? "refused" : decision.reason;
  refused.push({
    argv: argv.map((arg) => arg ?? "\uFFFD"),
    reason,
    needsApproval: !decision.run && decision.needsApproval,
  });
  return `${id} deny ${Buffer.from(reason, "utf8").toString("hex")}\n`;
}

/**
 * Starts the broker for one call, before the command: the gates connect to its socket (they wait for it to appear).
 * Each start is decided with `rules`; what they allow runs in a sandbox made of `sandbox` + the start's cwd and
 * environment + `guard`, with the private copy of the program as descriptor 3.
 */
export function startExecBroker(options: ExecBrokerOptions): BrokerProcess {
  const { helpers, gates, sandbox, guard } = options;
  const argv = [
    ...options.prefix,
    helpers.broker,
    gates.socketPath,
    String(MAX_BROKERED_RUNS),
    String(gates.programs.length),
    ...gates.programs,
    String(sandbox.length),
    ...sandbox,
    String(guard.length),
    ...guard,
  ];
  const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env: { ...options.env } });
  const refused: RefusedStart[] = [];
  let errors = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (errors.length < 8192) errors += chunk;
  });
  child.stdin.on("error", () => undefined);
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = decideLine(line, options, refused);
    if (answer && child.stdin.writable) child.stdin.write(answer);
  });
  const exited = new Promise<void>((resolve) => {
    child.once("close", () => resolve());
    child.once("error", (error) => {
      errors += `cannot start the exec broker: ${error.message}\n`;
      resolve();
    });
  });
  return {
    finish: async () => {
      child.stdin.end();
      await exited;
      return { refused, errors: errors.trim() };
    },
  };
}
