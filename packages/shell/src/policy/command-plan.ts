import type { Refusal } from "./refusal.js";

/** A command ready to run: absolute executable, host cwd, argv as typed (for approval rules and messages). */
export type CommandPlan =
  | { shell: false; argv: string[]; programArgv: string[]; layers: string[][]; cwd: string; display: string }
  | { shell: true; command: string; programArgv: string[]; layers: string[][]; cwd: string; display: string };

/** Result of a check. */
export type CommandCheck = { ok: true; plan: CommandPlan } | Refusal;
