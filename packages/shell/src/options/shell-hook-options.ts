// The options of the shell hook (and the shell middleware) as ONE zod schema: it gives their type
// (`ShellHookOptions`), their defaults and the InvalidOptionsError messages. The policy, the executor's limits, the
// skill environments and the artifacts own their parts; this schema composes them.
import type { RunnableConfig } from "@langchain/core/runnables";
import { z } from "zod";
import { artifactOptionsSchema } from "../artifacts/artifact-options.js";
import { skillEnvironmentOptionsSchema } from "../environments/skill-environments.js";
import type { BubblewrapExecutorOptions } from "../executor/bubblewrap-executor.js";
import { commandLimitsOptionSchema } from "../executor/command-limits.js";
import type { CommandExecutor } from "../executor/executor-types.js";
import { integerSchema, MAX_TIMER_MS } from "../internal/core.js";
import { absolutePath, booleanOption } from "../internal/zod-options.js";
import { policyOptionFields } from "../policy/policy-options.js";
import type { ShellSkillCatalog } from "./skills-tool-hook.js";

export type {
  ApprovalCandidate,
  ApprovalCommand,
  ApprovalRule,
  ShellApprovalRequest,
} from "../policy/approval-types.js";

/** Names of the tools the shell hook contributes. */
export type ShellToolName =
  | "run_skill_script"
  | "shell"
  | "read_output"
  | "shell_session_write"
  | "shell_session_poll"
  | "shell_session_kill";

/** Every shell tool, in the order the hook contributes them. */
export const SHELL_TOOL_NAMES: readonly ShellToolName[] = [
  "run_skill_script",
  "shell",
  "read_output",
  "shell_session_write",
  "shell_session_poll",
  "shell_session_kill",
];

/** Buffers past this size cannot be allocated in one piece (and would not fit in a tool result anyway). */
const MAX_BUFFER_BYTES = 1024 ** 3;

const executorMessage = "must be 'auto', 'local', 'bubblewrap' or an object with run, start and view";

function isExecutor(value: unknown): value is CommandExecutor {
  const executor = value as Partial<CommandExecutor> | null;
  return (
    typeof executor === "object" &&
    executor !== null &&
    typeof executor.run === "function" &&
    typeof executor.start === "function" &&
    typeof executor.view === "function"
  );
}

/** Names in `alwaysVisible`: each one of the shell tools. */
const shellToolNameSchema = z.custom<ShellToolName>((value) => SHELL_TOOL_NAMES.includes(value as ShellToolName), {
  error: (issue) => `unknown tool '${String(issue.input)}' (one of ${SHELL_TOOL_NAMES.join(", ")})`,
});

/** The options of {@link createShellHook} as a zod schema (parsed once by the factory). */
export const shellHookOptionsSchema = z
  .object(
    {
      /** Where skills are found (their folder and allowed-tools). SkillCatalog / SkillRegistry from core fit. */
      skills: z.custom<ShellSkillCatalog>(
        (value) => typeof (value as ShellSkillCatalog | undefined)?.get === "function",
        { error: "must have a get(name) method (a SkillCatalog or SkillRegistry)" },
      ),
      /**
       * Where commands run. `bubblewrap` is a sandbox (Linux): the command sees only /usr, the skill folder (read-only)
       * and the workspace. `local` is NOT a sandbox: commands run as this process's user with its file-system and
       * network access (each in its own PID namespace where `unshare` works); choose it only for trusted models and
       * skills. `auto` = bubblewrap when it works here, else local with a warning.
       * @default "auto"
       */
      executor: z
        .union([z.enum(["auto", "local", "bubblewrap"]), z.custom<CommandExecutor>(isExecutor)], {
          error: executorMessage,
        })
        .default("auto"),
      /** Options of the bubblewrap executor (bwrap path, network, extra read-only paths). */
      bubblewrap: z
        .custom<BubblewrapExecutorOptions>((value) => typeof value === "object" && value !== null, {
          error: "must be an object",
        })
        .optional(),
      /**
       * Folder holding one workspace per thread (`<root>/thread-<hash>/`); kept across processes, so a resumed thread
       * finds its files. @default a private folder under the OS temp dir, made on first use and removed by `dispose()`
       * and at exit
       */
      workspaceRoot: absolutePath().optional(),
      /** Delete a thread's workspace in `dispose(threadId)`. @default false (workspaces live across runs of a thread) */
      removeWorkspacesOnDispose: booleanOption().default(false),
      /** Remove a thread's workspace once unused for this long (swept when another one is used). @default no limit */
      workspaceMaxAgeMs: integerSchema().optional(),
      /** When set, only these commands run (prefixes like `git status`, `python3`; `:*` suffix allowed), plus loaded skills' `Bash(...)` grants. */
      allow: policyOptionFields.allow,
      /** Commands that never run. @default DEFAULT_DENIED_PROGRAMS (sudo, su, mount, kill, ...) */
      deny: policyOptionFields.deny,
      /** Commands that need a human's approval through LangGraph `interrupt()` (needs a checkpointer). */
      requireApproval: policyOptionFields.requireApproval,
      /** A skill's scripts run only once the skill was read (loaded). @default true */
      requireSkillRead: booleanOption().default(true),
      /** Check the programs a skill declares it needs before running its scripts. @default true */
      checkRequirements: booleanOption().default(true),
      /**
       * Which command lines run. `full`: any bash line (pipes, lists, redirections, substitutions, loops, functions)
       * whose every command passes every rule; it runs as `bash --noprofile --norc -c`. `simple`: one program with
       * plain arguments only. @default "full"
       */
      shellSyntax: policyOptionFields.shellSyntax,
      /** Removed: full shell syntax is the default (`shellSyntax: "simple"` restricts it). */
      allowShellSyntax: z
        .custom<never>(() => false, {
          error:
            "was removed: full shell syntax is the default and every command of a line is checked (shellSyntax: 'simple' restricts it)",
        })
        .optional(),
      /** Refuse arguments naming paths outside the workspace and the skill folder. @default true */
      confinePaths: policyOptionFields.confinePaths,
      /** Absolute paths arguments may always name. @default ["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/stdin", "/dev/stdout", "/dev/stderr"] */
      readablePaths: policyOptionFields.readablePaths,
      /** PATH programs are resolved from (never the environment's). @default "/usr/local/bin:/usr/bin:/bin" */
      fixedPath: policyOptionFields.fixedPath,
      /** Default timeout of a command. @default 300000 (5 minutes) */
      timeoutMs: integerSchema({ max: MAX_TIMER_MS }).default(300_000),
      /** Largest timeout a tool call may ask for. @default 600000 (or timeoutMs when larger) */
      maxTimeoutMs: integerSchema({ max: MAX_TIMER_MS }).optional(),
      /** Time between SIGTERM and SIGKILL when a command is stopped. @default 2000 */
      killGraceMs: integerSchema({ max: 60_000 }).default(2_000),
      /** stdout and stderr each keep this many bytes (head and tail). @default 16384 */
      maxOutputBytes: integerSchema({ max: 16 * 1024 ** 2 }).default(16_384),
      /** Kill a command once stdout + stderr exceed this. @default 67108864 (64 MiB) */
      killAfterOutputBytes: integerSchema({ max: MAX_BUFFER_BYTES }).default(64 * 1024 * 1024),
      /**
       * The environment of every command is an allow-list: the runtime's own fixed names (PATH, HOME, TMPDIR,
       * WORKSPACE, OUT_DIR, SKILL_DIR, SKILLS_DIR, SKILL_NAME, RUN_DIR, LANG, git and Python hardening) plus `set`, plus the names in
       * `allow` that a tool call may set. Nothing is inherited from this process.
       */
      environment: policyOptionFields.environment,
      /**
       * Resource limits of each command (applied with util-linux `prlimit` per process and, where the host allows it,
       * a cgroup per command: `memory.max` = memoryBytes and `pids.max` = processes for the whole tree, shared memory
       * included; a warning says when no cgroup can be made). `false` turns them off. Without a cgroup, the process
       * count is a per-user limit the kernel does not enforce for root. `sharedMemoryBytes` sizes bubblewrap's /dev/shm.
       * @default { memoryBytes: 4 GiB, processes: 512, fileSizeBytes: 1 GiB, openFiles: 1024, tmpBytes: 512 MiB, sharedMemoryBytes: 64 MiB }
       */
      limits: commandLimitsOptionSchema.optional(),
      /**
       * Artifacts: outputs saved beyond the workspace (`outputs.save_as_artifacts`) and staged later
       * (`artifact://name`). `store` is a LangGraph `BaseStore` or an {@link ArtifactStore}. @default the graph's store
       * (`compile({ store })`, the Agent Server's store) when the run has one; `false` turns artifacts off. `quota`
       * bounds each thread's artifacts in a `BaseStore` (default 64 MiB and 256 versions). `alwaysSave: true` saves
       * every call's reported files, whether or not the call asked (trpc-agent-go's force-save).
       */
      artifacts: artifactOptionsSchema.prefault({}),
      /**
       * Per-skill environments: a skill with a `requirements.txt` (or `scripts/requirements.txt`) gets a Python venv of
       * its own, outside its read-only folder, cached by content, used by `run_skill_script` (first on PATH). The
       * install asks for approval through `interrupt()` (`approve`), runs in the executor with the network on for the
       * install only, and accepts plain package specifiers only. `false` turns environments off (such skills run
       * without them). @default {} (on, approve: "interrupt")
       */
      skillEnvironments: z
        .union([z.literal(false), skillEnvironmentOptionsSchema], { error: "must be false or an object" })
        .prefault({}),
      /**
       * Host folders a call may copy files from with `host://<name>/<path>` inputs, by name (e.g.
       * `{ data: "/srv/data" }`). Read-only: files are copied into the workspace through the confined, no-follow walk;
       * nothing else of the host is reachable. @default {} (no host folders)
       */
      hostInputs: z
        .record(
          z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { error: hostInputsMessage() }),
          absolutePath(hostInputsMessage()),
          { error: "must be an object of name -> folder" },
        )
        .default({}),
      /** Stage files the user attached to the conversation into `in/attachments/` before each command. @default true */
      stageAttachments: booleanOption().default(true),
      /** Caps of the `out/` files reported after a run. */
      outputFiles: z
        .object(
          {
            maxFiles: integerSchema({ max: 1_000 }).default(20),
            maxFileBytes: integerSchema({ max: MAX_BUFFER_BYTES }).default(1_048_576),
            inlineTextBytes: integerSchema({ max: 16 * 1024 ** 2 }).default(16_384),
          },
          { error: "must be an object" },
        )
        .prefault({}),
      /** Interactive sessions (start with `interactive: true`, then write/poll/kill). @default { maxPerThread: 4 } */
      sessions: z
        .union(
          [
            z.literal(false),
            z.object({
              maxPerThread: integerSchema({ max: 64 }).default(4),
              maxUnreadBytes: integerSchema({ max: 16 * 1024 ** 2 }).default(65_536),
            }),
          ],
          { error: "must be false or an object" },
        )
        .prefault({}),
      /** Tools visible whatever skills are loaded: `true` = all. @default false (visible when a loaded skill asks for them) */
      alwaysVisible: z
        .union([z.boolean(), z.array(shellToolNameSchema)], {
          error: "must be a boolean or an array of shell tool names",
        })
        .default(false),
      /**
       * Which skills are loaded, as seen from inside the tool (defensive re-check). @default reads the graph state's
       * `skillgraph[agentId].load.loaded` (or a `loadedSkills` array), else what `authorize` last saw for the thread.
       */
      loadedSkills: z
        .custom<(context: { state: unknown; config: RunnableConfig }) => readonly string[] | undefined>(
          (value) => typeof value === "function",
          { error: "must be a function" },
        )
        .optional(),
      /** Agent whose loaded skills the default `loadedSkills` reads. @default "default" */
      agentId: z.string({ error: "must be a string" }).default("default"),
    },
    { error: "must be an object" },
  )
  .superRefine((options, context) => {
    if (options.maxTimeoutMs !== undefined && options.maxTimeoutMs < options.timeoutMs)
      context.addIssue({
        code: "custom",
        path: ["maxTimeoutMs"],
        input: options.maxTimeoutMs,
        message: `must be at least timeoutMs (${options.timeoutMs})`,
      });
  })
  // The one default that depends on another option: the largest timeout a call may ask for.
  .transform((options) => ({ ...options, maxTimeoutMs: options.maxTimeoutMs ?? Math.max(600_000, options.timeoutMs) }));

function hostInputsMessage(): string {
  return "must map a plain name (letters, digits, '.', '_', '-') to an absolute folder";
}

/** Options of {@link createShellHook} and {@link createShellMiddleware}: the input of their one zod schema. */
export type ShellHookOptions = z.input<typeof shellHookOptionsSchema>;

/** Options after parsing: defaults filled in. */
export type ParsedShellOptions = z.output<typeof shellHookOptionsSchema>;
