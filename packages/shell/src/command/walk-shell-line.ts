// Walks a bash syntax tree once and lists every simple command the line can run (see ShellLine).
import { bashParserReady, withBashTree } from "./bash-parser.js";
import { joinContinuations } from "./join-continuations.js";
import { LineWalker } from "./line-walker.js";
import { PLAN_TIME_BOX_MESSAGE, PlanBudget } from "./plan-budget.js";
import { errorPiece, keptContinuation, refusedLine } from "./refused-lines.js";
import type { ShellLine } from "./shell-line-types.js";
import { WARM_UP_LINE } from "./warm-up-line.js";

const LINE_LIMIT = 64 * 1024;

/** One walk of `line` within `budget` (see {@link walkShellLine}). */
function walkLine(
  line: string,
  known: Readonly<Record<string, string>>,
  budget: PlanBudget = new PlanBudget(),
): ShellLine {
  if (line.includes("\0")) return refusedLine(line, "the command contains a NUL byte");
  if (line.length > LINE_LIMIT) return refusedLine(line, `the command is longer than ${LINE_LIMIT} characters`);
  const timedOut = () => refusedLine(line.slice(0, 80), PLAN_TIME_BOX_MESSAGE, "unsupported");
  const joined = joinContinuations(line, budget);
  if (!joined) return timedOut();
  const cancel = { spent: () => budget.spent(), onCancel: timedOut };
  const walked = withBashTree(
    joined.text,
    (root) => {
      if (root.hasError) return refusedLine(errorPiece(root) ?? line, "bash cannot parse this line");
      const left = keptContinuation(root, joined.text);
      if (left !== undefined)
        return refusedLine(
          left,
          "a backslash-newline the checker cannot place (bash may join these lines); write it on one line",
        );
      const walker = new LineWalker(known, budget);
      for (const piece of joined.inWord)
        walker.problem(
          "opaque",
          piece,
          "a backslash-newline inside a word: bash joins the two lines into one word before reading it; write the word on one line",
        );
      walker.statement(root);
      walker.finish();
      const simple =
        root.namedChildren.length === 1 &&
        root.namedChildren[0]?.type === "command" &&
        walker.commands.length === 1 &&
        walker.redirects.length === 0 &&
        walker.commands[0]?.assignments.length === 0 &&
        walker.commands[0].words.every((word) => word.value !== undefined);
      return {
        text: joined.text,
        commands: walker.commands,
        redirects: walker.redirects,
        functions: walker.functions,
        problems: walker.problems,
        assigned: new Set(walker.assigned.keys()),
        simple,
      };
    },
    cancel,
  );
  return budget.spent() ? timedOut() : walked;
}

/** False until this thread has walked a line. */
let walkerWarm = false;

/**
 * Parses `line` with the bash grammar and walks it (see {@link ShellLine}). A tree with syntax errors is refused
 * whole: the grammar recovers from errors, bash does not, and the two would disagree about what runs.
 * @param line the command line as typed
 * @param known variables whose values are known before running (host paths of $WORKSPACE, $OUT_DIR, $SKILL_DIR)
 * @param budget the time box: a line whose parse and walk outlast it is refused (unsupported)
 */
export function walkShellLine(
  line: string,
  known: Readonly<Record<string, string>>,
  budget: PlanBudget = new PlanBudget(),
): ShellLine {
  if (!walkerWarm && bashParserReady()) {
    walkerWarm = true;
    // the first walk of a thread also compiles the parser and the walker: the process's cost, not the line's
    walkLine(WARM_UP_LINE, {}, new PlanBudget(Number.POSITIVE_INFINITY));
  }
  return walkLine(line, known, budget);
}
