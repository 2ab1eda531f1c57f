import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bubblewrapWorks, EXECUTORS, harnessesFor } from "./attack-harness.js";

// A repository created and configured within one command is not among those the sandbox shows sanitised (the scan
// runs before the command starts), so each way a line can make one whose configuration names a program must need
// approval (refused without approval rules), and a later git command then runs no program. A filter marks the
// workspace when git runs it.

const canSandbox = bubblewrapWorks();
const mark = (name: string) => `touch "$WORKSPACE/PWNED-${name}"`;
const filter = (name: string) => `[filter "a"]\\n\\tclean = ${mark(name)}; cat\\n\\trequired = true\\n`;
const marks = (workspace: string) => readdirSync(workspace).filter((name) => name.startsWith("PWNED"));

/** One line that makes and configures a repository, then runs git in it; `prepare` writes the workspace first. */
const lines: Array<[string, string, ((workspace: string) => void)?]> = [
  [
    "git init, then git config setting a filter",
    `git init -q x && git -C x config filter.a.clean '${mark("config")}; cat' && printf '* filter=a\\n' > x/.gitattributes && echo hi > x/f && git -C x add f`,
  ],
  [
    "git init from a template folder holding a filter and info/attributes",
    "git init -q --template=t x && cd x && echo hi > f && git add f",
    (workspace) => {
      mkdirSync(path.join(workspace, "t", "info"), { recursive: true });
      writeFileSync(
        path.join(workspace, "t", "config"),
        filter("template").replaceAll("\\n", "\n").replaceAll("\\t", "\t"),
      );
      writeFileSync(path.join(workspace, "t", "info", "attributes"), "* filter=a\n");
    },
  ],
  [
    "git init with a separate git folder, then its config and info/attributes written as plain files",
    `git init -q --separate-git-dir=g x && printf '${filter("separate")}' >> g/config && printf '* filter=a\\n' > g/info/attributes && cd x && echo hi > f && git add f`,
  ],
  [
    "an existing separate git folder's config written as a plain file",
    `printf '${filter("existing")}' >> g/config && printf '* filter=a\\n' > g/info/attributes && cd x && echo hi > f && git add f`,
    (workspace) => execFileSync("git", ["init", "-q", "--separate-git-dir=g", "x"], { cwd: workspace }),
  ],
  [
    "cd into an existing separate git folder, then a relative write",
    `cd g && printf '${filter("cd-existing")}' >> config && printf '* filter=a\\n' > info/attributes`,
    (workspace) => execFileSync("git", ["init", "-q", "--separate-git-dir=g", "x"], { cwd: workspace }),
  ],
];

for (const executor of EXECUTORS) {
  describe.skipIf(executor === "bubblewrap" && !canSandbox && process.env.CI !== "true")(
    `a repository made and configured in one line (${executor})`,
    () => {
      const harness = harnessesFor(executor, afterAll);

      it.each(lines)(
        "%s needs approval (refused without approval rules); git add then runs no filter",
        async (_name, command, prepare) => {
          const subject = harness({ allow: ["git:*", "true", "cat"] });
          await subject.call("shell", { command: "true" });
          prepare?.(subject.workspace);
          const result = await subject.call("shell", { command });
          expect(marks(subject.workspace)).toEqual([]);
          expect(result, JSON.stringify(result)).toMatchObject({ status: "refused", reason: "opaque-command" });
          expect(marks(subject.workspace)).toEqual([]);
          // the next call sees whatever the line could do before it was refused; git there runs no filter either
          const after = await subject.call("shell", { command: "git -C x add -A 2>/dev/null; true" });
          expect(after.status).toBe("ok");
          expect(marks(subject.workspace)).toEqual([]);
        },
        60_000,
      );
    },
  );
}
