import { invisibleCharacters, showInvisibleCharacters, type ShellApprovalRequest } from "@skillgraph/shell";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { ChatRenderer } from "./chat-renderer.js";
import type { ChatAgent, ChatTurnInput, PendingInterrupt } from "./create-chat-agent.js";
import { runChatTurn } from "./run-chat-turn.js";

/** How commands needing approval are answered: asked in the REPL, or all approved / all denied (one-shot runs). */
export type ApprovalMode = "ask" | "approve-all" | "deny-all" | "deny-default";

/** A user's answer to one approval question. */
export type ApprovalAnswer = "yes" | "no" | "always";

/** Options of {@link runChatExchange}. */
export interface ChatExchangeOptions {
  mode: ApprovalMode;
  /** Asks the user (mode "ask"); resolves to their answer. */
  ask?: (request: ShellApprovalRequest) => Promise<ApprovalAnswer>;
  /** Commands answered "always" in this session (exact command lines), shared with the shell hook's approval rule. */
  alwaysApproved?: Set<string>;
  signal?: AbortSignal;
  endpoint?: { baseURL: string | undefined; timeoutMs?: number };
  /** Most approval rounds in one exchange. @default 20 */
  maxRounds?: number;
}

/** Whether an interrupt value is a shell approval request. */
export function isShellApproval(value: unknown): value is ShellApprovalRequest {
  return (
    typeof value === "object" && value !== null && (value as { type?: unknown }).type === "skillgraph/shell-approval"
  );
}

/**
 * The command asking for approval, where it runs, and (when parts of it cannot be checked before it runs) why. Every
 * invisible character (bidi controls, zero-width and other format characters) is shown escaped, with a warning, so
 * what the user reads is what runs.
 */
function approvalSubject(request: ShellApprovalRequest): { what: string; why: string } {
  const who = request.skill ? ` (skill ${request.skill}, ${request.executor})` : ` (${request.executor})`;
  const opaque = (request.opaque ?? []).map(({ piece, message }) => `\`${piece}\`: ${message}`);
  const raw = `\`${request.command}\`${who}`;
  const hidden = [...new Set([...(request.invisible ?? []), ...invisibleCharacters(`${raw}\n${opaque.join("\n")}`)])];
  const warning =
    hidden.length > 0 ? ` WARNING: the line holds invisible characters (${hidden.join(" ")}), shown escaped.` : "";
  return {
    what: showInvisibleCharacters(raw),
    why: showInvisibleCharacters(
      `${opaque.length > 0 ? ` Not checkable before it runs: ${opaque.join("; ")}.` : ""}${warning}`,
    ),
  };
}

/** The approval question as one line, with the reason when parts of the line cannot be checked before it runs. */
export function approvalQuestion(request: ShellApprovalRequest): string {
  const { what, why } = approvalSubject(request);
  return terminalSafeLine(`Run ${what}?${why}`);
}

/** Why a line the sandbox would run unasked was asked about: the session runs without one. */
const LOCAL_NOTE =
  " Without a sandbox (--unsafe-local, or shell.executor: unsafe-local) every command its skill does not" +
  " pre-approve needs approval.";

/** The approved or denied command as a notice line (no question). */
function approvalNotice(request: ShellApprovalRequest): string {
  const { what, why } = approvalSubject(request);
  return terminalSafeLine(`${what}${why}`);
}

/**
 * One user turn and every approval round it raises: runs the turn, then while the thread waits on shell approvals,
 * answers them (asking, or by the mode) and resumes. Returns like runChatTurn.
 */
export async function runChatExchange(
  agent: ChatAgent,
  input: ChatTurnInput,
  renderer: ChatRenderer,
  options: ChatExchangeOptions,
): Promise<string | undefined> {
  let next: ChatTurnInput = input;
  for (let round = 0; round <= (options.maxRounds ?? 20); round++) {
    const error = await runChatTurn(agent, next, renderer, { signal: options.signal, endpoint: options.endpoint });
    if (error !== undefined) return error;
    const pending = await agent.pendingInterrupts();
    if (pending.length === 0) return undefined;
    const answers = await answerInterrupts(pending, renderer, options);
    if (answers === undefined) return "interrupted";
    next = { resume: answers };
  }
  return "too many approval rounds in one turn";
}

async function answerInterrupts(
  pending: PendingInterrupt[],
  renderer: ChatRenderer,
  options: ChatExchangeOptions,
): Promise<unknown> {
  const values: unknown[] = [];
  for (const entry of pending) {
    if (!isShellApproval(entry.value)) {
      values.push({ approved: false, reason: "skillgraph chat cannot answer this interrupt" });
      continue;
    }
    const request = entry.value;
    let answer: ApprovalAnswer;
    if (options.mode === "approve-all") {
      answer = "yes";
      renderer.notice(`approved (--approve-all): ${approvalNotice(request)}`);
    } else if (options.mode === "ask" && options.ask) {
      if (options.signal?.aborted) return undefined;
      answer = await options.ask(request);
    } else {
      answer = "no";
      const hint =
        options.mode === "deny-all"
          ? "(--deny-all)"
          : "(one-shot runs deny commands that need approval; pass --approve-all to run them)";
      const notice = approvalNotice(request);
      const local = request.executor === "local" ? `${notice.endsWith(".") ? "" : "."}${LOCAL_NOTE}` : "";
      renderer.notice(`denied ${hint}: ${notice}${local}`);
    }
    // remembered by key: tool, skill, the files the line runs, the line as typed and its cwd (never the line alone)
    if (answer === "always" && typeof request.key === "string") options.alwaysApproved?.add(request.key);
    values.push(answer === "no" ? { approved: false, reason: "the user declined" } : { approved: true });
  }
  if (pending.every((entry) => entry.id !== undefined))
    return Object.fromEntries(pending.map((entry, index) => [entry.id!, values[index]]));
  return values[0];
}
