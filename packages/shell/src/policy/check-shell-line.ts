// Every simple command of a parsed line through the rules: unwrapping, deny/allow/grants, builtins, paths, scripts.
import path from "node:path";
import { shellQuote } from "../command/shell-quote.js";
import { PLAN_TIME_BOX_MESSAGE, PlanBudget } from "../command/plan-budget.js";
import type { ShellLine, ShellProblem, ShellWord, SimpleShellCommand } from "../command/shell-line-types.js";
import { checkBuiltin, isBashBuiltin } from "./bash-builtins.js";
import { commandLayers } from "./command-layers.js";
import type { CommandPolicy } from "./command-policy.js";
import { matchesCommandRule, programName } from "./command-rules.js";
import { isCommandAllowed } from "./is-command-allowed.js";
import type { CheckedCommand, CommandCheckInput } from "./command-check-types.js";
import { DYNAMIC_WORD, displayWord, isDynamicWord } from "./dynamic-word.js";
import { checkEnvName } from "./env-names.js";
import { gitVariableMessage, isGitConfigVariable } from "./git-env-names.js";
import { isInsideFolder } from "../internal/core.js";
import {
  checkArgumentPath,
  checkScriptLocation,
  hasParentSegment,
  realpathOfNearest,
  realpathOrUndefined,
} from "./path-confinement.js";
import { innerProgramsDenied, resolveExecutable, resolveProgram } from "./program-resolution.js";
import { type Refusal, refusal } from "./refusal.js";
import { clusterValues, folderLeadsOut, runTimeArgument } from "./run-time-words.js";
import { attachedValue, copiedSources, insideGitFolder, isRepositoryConfig, writtenWords } from "./write-targets.js";

/** A checked line: the text to run (skill script paths rewritten), each command's verdict, the opaque pieces. */
export interface CheckedLine {
  ok: true;
  /**
   * The line bash runs: as typed with backslash-newline pairs joined (what bash reads), except skill scripts and
   * `scripts/...` arguments point into the skill folder.
   */
  run: string;
  commands: CheckedCommand[];
  opaque: ShellProblem[];
  /** Files the line reads through a redirection (`< file`), as their values (known before running). */
  redirectedFrom: string[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const describe = (argv: readonly string[]) =>
  argv.map((word) => (isDynamicWord(word) ? displayWord(word) : shellQuote(word))).join(" ");

/** The rules' view of a word: its value, or the marker of a word known only at run time. */
function ruleWord(word: ShellWord): string {
  return word.value ?? `${DYNAMIC_WORD}${word.why ?? "an expansion"}`;
}

/** Folders a line may be in after its `cd`s (each `cd` may or may not have run, so the set doubles). */
const MAX_CWDS = 16;

class LineChecker {
  readonly commands: CheckedCommand[] = [];
  readonly opaque: ShellProblem[] = [];
  readonly edits: Edit[] = [];
  readonly roots: string[];
  readonly cwds: string[];
  /** Folders globs list, and whether each may lead out (a symlink to outside), checked once per line. */
  private readonly listedFolders = new Map<string, boolean>();

  private readonly fileSystem: boolean;
  private readonly budget: PlanBudget;

  constructor(
    private readonly input: CommandCheckInput,
    private readonly policy: CommandPolicy,
    private readonly line: ShellLine,
    { cwd, fileSystem, budget }: { cwd: string; fileSystem: boolean; budget: PlanBudget },
  ) {
    this.fileSystem = fileSystem;
    this.budget = budget;
    this.roots = [realpathOrUndefined(input.workspaceDir) ?? input.workspaceDir];
    const skillDir = input.mode === "skill" ? input.skill?.dir : undefined;
    if (skillDir) this.roots.push(realpathOrUndefined(skillDir) ?? skillDir);
    this.cwds = [cwd];
  }

  opaquePiece(piece: string, message: string): void {
    this.opaque.push({ kind: "opaque", piece, message });
  }

  /** Checks a path (argument or redirection target) against every folder the line may be in. */
  checkPath(word: ShellWord, program = ""): Refusal | undefined {
    if (!this.policy.confinePaths || !this.fileSystem) return undefined;
    const candidates: string[] = [];
    if (word.value !== undefined) {
      candidates.push(word.value);
      const attached = attachedValue(word, program); // `-t..`, `--output=../x`, dd's `of=../x`
      if (attached !== undefined) candidates.push(attached);
      candidates.push(...clusterValues(word.value)); // `-vt..`, `-ft..`: the value glued after any letter
    } else if (word.globPrefix) candidates.push(word.globPrefix);
    for (const candidate of candidates)
      for (const cwd of this.cwds) {
        if (this.budget.spent()) return refusal("shell-syntax", PLAN_TIME_BOX_MESSAGE);
        const problem = checkArgumentPath(candidate, cwd, this.roots, this.policy);
        if (problem) return problem;
      }
    return undefined;
  }

  /** The files a command writes: git configuration is opaque, the skill folder refused (a copier's sources are read). */
  private writtenFiles(command: SimpleShellCommand): Refusal | undefined {
    const sources = copiedSources(command.words);
    for (const word of writtenWords(command.words)) {
      this.writeTarget(word, command.text);
      const problem = sources.has(word.start) ? undefined : this.skillWrite(word, command.text);
      if (problem) return problem;
    }
    return undefined;
  }

  /** Refuses a file the line writes inside the running skill's folder (read-only under every executor). */
  skillWrite(word: ShellWord, piece: string): Refusal | undefined {
    const skillDir = this.input.mode === "skill" ? this.roots[1] : undefined;
    if (!this.fileSystem || skillDir === undefined || word.value === undefined) return undefined;
    const targets = this.cwds.map((cwd) => path.resolve(cwd, word.value as string));
    const mapped = this.skillArgumentTarget(word);
    if (mapped !== undefined) targets.push(mapped);
    for (const target of targets) {
      if (isInsideFolder(realpathOfNearest(target), skillDir))
        return refusal(
          "skill-folder-read-only",
          `'${piece}' writes '${word.value}' in the skill folder, which is read-only; write under the workspace (out/ for results)`,
        );
    }
    return undefined;
  }

  /** `cd dir`: the folder must be inside the roots; later relative paths are checked from it too. */
  followCd(command: SimpleShellCommand): Refusal | undefined {
    const verdict = checkBuiltin(command);
    if (verdict.kind !== "cd" || verdict.target === undefined) return undefined;
    const word = command.words.find((candidate) => candidate.value === verdict.target) as ShellWord;
    const problem = this.checkPath(word);
    if (problem) return problem;
    const target = verdict.target;
    if (this.cwds.length > MAX_CWDS)
      return refusal(
        "shell-syntax",
        `the line changes folder more than ${MAX_CWDS} ways; split it into shorter commands`,
      );
    this.cwds.push(...this.cwds.map((cwd) => path.resolve(cwd, target)));
    return undefined;
  }

  /** A write the checker cannot judge: a target known only at run time, or git's repository configuration. */
  writeTarget(word: ShellWord, piece: string): void {
    if (word.value === undefined) {
      this.opaquePiece(
        piece,
        `it writes to ${word.why ?? "a path"}, known only at run time (it may name .git/ or a folder outside the workspace); write the path out`,
      );
    } else if (
      isRepositoryConfig(word.value, this.cwds, this.input.workspaceDir) ||
      (this.fileSystem && insideGitFolder(word.value, this.cwds, this.input.workspaceDir))
    ) {
      this.opaquePiece(
        piece,
        `it writes '${word.value}', git's repository configuration: a filter, hook or program named there runs on a later git command`,
      );
    }
  }

  /** Without a sandbox: an argument known only at run time may name any file, so the command is opaque. */
  runTimeArguments(command: SimpleShellCommand, program: string): void {
    const leadsOut = (folder: string) =>
      this.cwds.some((cwd) => {
        const listed = path.resolve(cwd, folder);
        if (!this.listedFolders.has(listed)) this.listedFolders.set(listed, folderLeadsOut(listed, this.roots));
        return this.listedFolders.get(listed) as boolean;
      });
    for (const word of command.words.slice(1)) {
      const why = this.budget.spent()
        ? "not checked within the time box"
        : runTimeArgument(word, program, this.fileSystem ? leadsOut : undefined);
      if (why === undefined) continue;
      this.opaquePiece(
        command.text,
        `an argument is ${why}, known only at run time: without a sandbox it may name a file outside the workspace; write the path out`,
      );
      return;
    }
  }

  envNames(command: SimpleShellCommand, name: string): Refusal | undefined {
    const assignments = command.assignments.filter(
      (assignment) => !(assignment.name === "IFS" && ["read", "mapfile", "readarray"].includes(name)),
    );
    return this.assignedNames(command.text, assignments);
  }

  /** Each assigned name must be on the allow-list; one of git's configuration variables makes the piece opaque. */
  assignedNames(piece: string, assignments: ReadonlyArray<{ name: string }>): Refusal | undefined {
    for (const assignment of assignments) {
      const problem = checkEnvName(assignment.name, this.policy);
      if (problem) return problem;
      if (isGitConfigVariable(assignment.name)) this.opaquePiece(piece, gitVariableMessage(assignment.name));
    }
    return undefined;
  }

  denied(layer: readonly string[], outer: string | undefined): Refusal | undefined {
    // a program named at run time is opaque (refused, or asked about), not matched against program names
    if (layer[0] === undefined || isDynamicWord(layer[0])) return undefined;
    const rule = this.policy.deny.find((candidate) => matchesCommandRule(candidate, layer, "broad"));
    if (!rule) return undefined;
    return refusal(
      "denied",
      `'${describe(layer)}' is denied (${rule.source})${outer ? ` and runs inside '${outer}'` : ""}`,
    );
  }

  command(command: SimpleShellCommand): Refusal | undefined {
    if (command.words.length === 0) return undefined; // NAME=value alone: names were checked by the walker
    const first = command.words[0] as ShellWord;
    const argv = command.words.map(ruleWord);
    const name = first.value;
    if (name === undefined) {
      const denied = this.denied(argv, undefined);
      if (denied) return denied;
      this.opaquePiece(
        command.text,
        `the program to run is ${first.why ?? "an expansion"}, known only at run time; write its name`,
      );
      return undefined;
    }
    if (this.line.functions.has(name)) {
      this.commands.push({ argv, layers: [argv], typedLayers: [argv], program: `function:${name}`, kind: "function" });
      return this.denied(argv, undefined) ?? this.envNames(command, name);
    }
    if (isBashBuiltin(name)) return this.builtin(command, argv, name);
    return this.program(command, argv, name, false);
  }

  builtin(command: SimpleShellCommand, argv: string[], name: string): Refusal | undefined {
    const verdict = checkBuiltin(command);
    if (verdict.kind === "program") return this.program(command, argv, name, true);
    const denied = this.denied(argv, undefined);
    if (denied) return denied;
    const env = this.envNames(command, name);
    if (env) return env;
    if (verdict.kind === "opaque") this.opaquePiece(command.text, verdict.message);
    if (name === "export") {
      for (const word of command.words.slice(1)) {
        const exported = word.value?.split("=")[0];
        if (!exported || exported.startsWith("-")) continue;
        const problem = checkEnvName(exported, this.policy);
        if (problem) return problem;
      }
    }
    for (const word of command.words.slice(1)) {
      const problem = this.checkPath(word);
      if (problem) return problem;
    }
    this.commands.push({ argv, layers: [argv], typedLayers: [argv], program: `builtin:${name}`, kind: "builtin" });
    return undefined;
  }

  program(command: SimpleShellCommand, argv: string[], name: string, builtin: boolean): Refusal | undefined {
    const first = command.words[0] as ShellWord;
    if (name.includes("/")) {
      const location = checkScriptLocation(name, this.input);
      if (!location.ok) return location;
    }
    const unwrapped = commandLayers(argv);
    for (const layer of unwrapped.layers) {
      const denied = this.denied(layer, layer === unwrapped.layers[0] ? undefined : programName(name));
      if (denied) return denied;
    }
    if (!unwrapped.ok) this.opaquePiece(command.text, unwrapped.message);
    const env = this.envNames(command, name);
    if (env) return env;
    const wrapped = unwrapped.ok ? this.assignedNames(command.text, unwrapped.assignments) : undefined;
    if (wrapped) return wrapped;
    const literal = unwrapped.ok ? unwrapped.literal : unwrapped.layers;
    // a skill's own script (path-qualified) needs no allow rule, but every program it wraps does
    const mustBeAllowed = name.includes("/") ? literal.slice(1) : literal;
    for (const layer of mustBeAllowed) {
      if (!isCommandAllowed(layer, this.input, this.policy)) {
        return refusal(
          "not-allowed",
          `'${describe(layer)}' is not in the allow list nor granted by a loaded skill's allowed-tools`,
        );
      }
    }
    const checked: CheckedCommand = {
      argv: [programName(name), ...argv.slice(1)],
      layers: unwrapped.layers,
      typedLayers: literal,
      program: builtin ? `builtin:${name}` : name,
      kind: name.includes("/") ? "script" : "program",
    };
    this.commands.push(checked);
    const written = this.writtenFiles(command);
    if (written) return written;
    if (this.policy.unsandboxed) this.runTimeArguments(command, programName(name));
    if (!this.fileSystem) return undefined;
    const parsed = { argv, cwd: this.cwds[0] as string, layers: unwrapped.layers };
    if (builtin) {
      const inner = innerProgramsDenied(parsed, this.policy);
      if (inner) return inner;
    } else {
      const resolved = resolveProgram(parsed, this.input, this.policy);
      if (!resolved.ok) return resolved;
      checked.program = resolved.prefix.at(-1) as string;
      if (name.includes("/")) this.rewriteScript(first, resolved.prefix);
    }
    for (const word of command.words.slice(1)) {
      this.rewriteSkillArgument(word);
      const problem = this.checkPath(word, programName(name));
      if (problem) return problem;
    }
    return undefined;
  }

  /** What the command sees for a host path in the skill folder: `"$SKILL_DIR"/rest` (set by both executors). */
  private skillPath(hostPath: string): string | undefined {
    const skillDir = this.input.skill?.dir;
    if (!skillDir) return undefined;
    const relative = path.relative(skillDir, hostPath);
    if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
    return `"$SKILL_DIR"/${shellQuote(relative)}`;
  }

  private rewriteScript(word: ShellWord, prefix: readonly string[]): void {
    const script = this.skillPath(prefix.at(-1) as string);
    if (!script) return;
    const interpreter = prefix.slice(0, -1).map((part, index) => {
      if (index > 0) return shellQuote(part);
      // bash finds the interpreter on the same PATH the policy used; the absolute path otherwise
      const base = programName(part);
      return resolveExecutable(base, this.policy.fixedPath) === part ? shellQuote(base) : shellQuote(part);
    });
    this.edits.push({ start: word.start, end: word.end, text: [...interpreter, script].join(" ") });
  }

  /**
   * `python3 scripts/x.py`, `cat references/a.md` in a skill: a relative path into a folder that is not in the
   * workspace but is in the skill folder means the skill's (the skill folder is the author's working folder).
   */
  rewriteSkillArgument(word: ShellWord): void {
    const target = this.skillArgumentTarget(word);
    const mapped = target === undefined ? undefined : this.skillPath(target);
    if (mapped) this.edits.push({ start: word.start, end: word.end, text: mapped });
  }

  /** The host path in the skill folder a relative word is taken to mean (see rewriteSkillArgument), if any. */
  private skillArgumentTarget(word: ShellWord): string | undefined {
    const skillDir = this.input.mode === "skill" ? this.input.skill?.dir : undefined;
    const value = word.value;
    if (!skillDir || value === undefined || !/^(\.\/)?[^/]+\/./.test(value) || hasParentSegment(value))
      return undefined;
    if (this.fileExists(path.resolve(this.cwds[0] as string, value)) || !this.fileExists(path.join(skillDir, value)))
      return undefined;
    // a symlink in the skill leading out of it is not the skill's file
    const skillReal = realpathOrUndefined(skillDir) ?? skillDir;
    if (!isInsideFolder(realpathOfNearest(path.join(skillDir, value)), skillReal)) return undefined;
    return path.join(skillDir, value);
  }

  private fileExists(file: string): boolean {
    return realpathOrUndefined(file) !== undefined;
  }
}

/** Every command, then every redirection, within the time box: the first refusal. */
function checkEveryPiece(checker: LineChecker, line: ShellLine, budget: PlanBudget): Refusal | undefined {
  const timedOut = refusal("shell-syntax", PLAN_TIME_BOX_MESSAGE);
  for (const command of line.commands) {
    if (budget.spent()) return timedOut;
    const problem = checker.command(command);
    if (problem) return problem;
  }
  for (const redirect of line.redirects) {
    if (budget.spent()) return timedOut;
    if (!redirect.target) continue;
    if (redirect.operator.includes(">")) {
      checker.writeTarget(redirect.target, redirect.text);
      const written = checker.skillWrite(redirect.target, redirect.text);
      if (written) return written;
    } else if (redirect.operator.startsWith("<") && redirect.operator !== "<<<")
      checker.rewriteSkillArgument(redirect.target);
    const problem = checker.checkPath(redirect.target);
    if (problem) return { ...problem, message: `redirection '${redirect.text}': ${problem.message}` };
  }
  return undefined;
}

/**
 * Checks every command of a walked line (see walk-shell-line.ts). `fileSystem: false` is the cheap pre-check (no
 * program resolution, no path confinement); `true` is the full check that comes right before running.
 * @returns the line to run and what it runs, or the first refusal (a piece of the line and what would work)
 */
export function checkShellLine(
  input: CommandCheckInput,
  policy: CommandPolicy,
  line: ShellLine,
  options: { cwd: string; fileSystem: boolean; budget?: PlanBudget },
): CheckedLine | Refusal {
  const budget = options.budget ?? new PlanBudget();
  const structural = line.problems.find((problem) => problem.kind !== "opaque");
  if (structural) {
    return refusal(
      "shell-syntax",
      `${structural.message}: '${structural.piece}'${structural.kind === "syntax" ? " (check quotes, brackets and here-document ends)" : ""}`,
    );
  }
  if (policy.syntax === "simple" && !line.simple) {
    return refusal(
      "shell-operator",
      "only a single program with plain arguments runs here (syntax: 'simple'): no pipes, lists, redirections or expansions",
    );
  }
  const checker = new LineChecker(input, policy, line, { ...options, budget });
  for (const problem of line.problems) checker.opaque.push(problem);
  // a variable already in the command's environment is exported: assigning it changes what every later program sees
  for (const name of line.assigned) {
    if (policy.fixedEnvNames?.has(name))
      checker.opaquePiece(name, `'${name}' is set for every command by the application; the line may not change it`);
  }
  // `cd` first, so that every relative path is checked from every folder the line may be in
  for (const command of line.commands) {
    if (command.words[0]?.value !== "cd" || line.functions.has("cd")) continue;
    const problem = checker.followCd(command);
    if (problem) return problem;
  }
  const problem = checkEveryPiece(checker, line, budget);
  if (problem) return problem;
  if (checker.opaque.length > 0 && !policy.opaqueNeedsApproval) {
    const [first] = checker.opaque as [ShellProblem];
    return refusal(
      "opaque-command",
      `'${first.piece}': ${first.message}. Without approval rules, such pieces are refused; write the program and its arguments out`,
    );
  }
  let run = line.text;
  for (const edit of [...checker.edits].sort((a, b) => b.start - a.start))
    run = run.slice(0, edit.start) + edit.text + run.slice(edit.end);
  const redirectedFrom = line.redirects.flatMap((redirect) =>
    redirect.operator.startsWith("<") && redirect.target?.value !== undefined ? [redirect.target.value] : [],
  );
  return { ok: true, run, commands: checker.commands, opaque: checker.opaque, redirectedFrom };
}
