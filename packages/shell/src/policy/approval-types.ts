// What approval rules see: the candidate command line and each command it runs.

/** One command of a line, as approval rules and "always" answers see it. */
export interface ApprovalCommand {
  /** argv as typed (argv[0] reduced to the program name); a word known only at run time shows as `\u0000why`. */
  argv: readonly string[];
  /** The programs it runs, as typed (wrappers unwrapped, nothing removed): what grants are matched against. */
  typedLayers: readonly (readonly string[])[];
  /** The file it runs (absolute host path), or `builtin:NAME` / `function:NAME`. */
  program: string;
  /** `script`: the skill's own script; `builtin`: a bash builtin the checker judged; `function`: defined by the line. */
  kind: "program" | "script" | "builtin" | "function";
}

/** What an approval rule is matched against. */
export interface ApprovalCandidate {
  tool: "run_skill_script" | "shell";
  skill?: string;
  /** argv of the line's first command, as typed (argv[0] reduced to the program name). */
  argv: readonly string[];
  /** The command line as typed (paths shown as the command sees them). */
  command: string;
  /**
   * Every program every command of the line runs, outermost first, in canonical form (wrappers such as `env`, `nice`,
   * `timeout`, `xargs`, `find -exec` unwrapped; git's known-safe global options removed): `env git -C r push` gives
   * `[["env", "git", "-C", "r", "push"], ["git", "push"]]`.
   */
  layers: readonly (readonly string[])[];
  /** Each command of the line (pipelines, lists, substitutions, loop and function bodies). */
  commands: readonly ApprovalCommand[];
  /** Working directory relative to the workspace. */
  cwd: string;
  /** Pieces that cannot be judged before running (eval, a program named by a variable, `git -c`, ...). */
  opaque: ReadonlyArray<{ piece: string; message: string }>;
  /**
   * True when the line stays inside a sandbox: the executor confines every command with the network off (bubblewrap
   * by default), no piece is opaque, and no input copies a host file in (`host://`). Every command of such a line
   * already passed the deny and allow lists, the grants and path confinement; it can write only the thread's
   * workspace and its private /tmp, read only the system folders, the skill folder and the workspace, and reach no
   * network. `requireApproval: [(candidate) => !candidate.sandboxed]` asks only for lines that leave the sandbox (the
   * `sandboxed` approval policy of `skillgraph chat`).
   */
  sandboxed: boolean;
  /** What an "always" answer remembers (see ShellApprovalRequest.key). */
  key: string;
}

/**
 * A `requireApproval` rule: a command prefix (`git push` also covers `git push origin main` and `env git -C x push`), a
 * RegExp over the command line and each program it runs, or a predicate (one that throws counts as "needs approval").
 */
export type ApprovalRule = string | RegExp | ((candidate: ApprovalCandidate) => boolean);

/** The payload of the `interrupt()` raised for a command needing approval. Resume with `{ approved: true }`. */
export interface ShellApprovalRequest {
  type: "skillgraph/shell-approval";
  tool: "run_skill_script" | "shell";
  skill?: string;
  command: string;
  argv: string[];
  /** Working directory relative to the workspace. */
  cwd: string;
  executor: string;
  /**
   * What an "always" answer should remember: tool, skill, the files the line runs (resolved), the line as typed and
   * its cwd. Approving one skill's `scripts/run.sh` this way never approves another skill's script of the same name.
   * Absent on requests an "always" answer cannot cover (installing a skill's requirements).
   */
  key?: string;
  /** Pieces of the line that cannot be judged before running (why approval is asked even without a matching rule). */
  opaque?: Array<{ piece: string; message: string }>;
  /**
   * Invisible characters in the line (bidi controls, zero-width and other format characters), escaped (`\u202E`):
   * what a terminal shows differs from what runs. Show `command` through `showInvisibleCharacters` and warn.
   */
  invisible?: string[];
}
