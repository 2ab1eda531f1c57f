// A skill's files resolve as its author wrote them, under both executors: relative `references/...` and
// `scripts/...` (the skill folder is the author's working folder), a script in any folder of the skill
// (`custom-scripts/run.sh`), the host path the prompt and read_skill show, `cwd: "$OUTPUT_DIR"`, and a word joining
// workspace variables. The skill folder stays read-only.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { fixtureCatalog, fixtureSkill } from "../__fixtures__/fixture-catalog.js";
import { toolLoopGraph } from "../__fixtures__/tool-loop-graph.js";
import { createBubblewrapExecutor } from "../executor/bubblewrap-executor.js";
import { createShellHook } from "./create-shell-hook.js";

const bubblewrap = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();

function skillFolder() {
  const root = mkdtempSync(path.join(os.tmpdir(), "skill-paths-"));
  const dir = path.join(root, "skills", "notes");
  mkdirSync(path.join(dir, "references"), { recursive: true });
  mkdirSync(path.join(dir, "scripts"));
  mkdirSync(path.join(dir, "custom-scripts"));
  writeFileSync(path.join(dir, "SKILL.md"), "---\nname: notes\ndescription: d\n---\n");
  writeFileSync(path.join(dir, "references", "notes.txt"), "from references\n");
  writeFileSync(path.join(dir, "scripts", "show.py"), "import sys\nprint(open(sys.argv[1]).read().strip())\n");
  writeFileSync(path.join(dir, "custom-scripts", "run.sh"), '#!/bin/sh\necho "custom: $1"\n');
  chmodSync(path.join(dir, "custom-scripts", "run.sh"), 0o755);
  return { root, dir };
}

/** Runs each command as one run_skill_script call of skill `notes` in `dir`; returns the parsed results in order. */
async function runAll(
  executor: "bubblewrap" | "local",
  { root, dir }: { root: string; dir: string },
  calls: Array<{ command: string; cwd?: string }>,
) {
  const hook = createShellHook({
    skills: fixtureCatalog([fixtureSkill({ name: "notes", dir, file: path.join(dir, "SKILL.md") })]),
    executor,
    loadedSkills: () => ["notes"],
    workspaceRoot: path.join(root, "ws"),
  });
  let model = fakeModel();
  calls.forEach((args, index) => {
    model = model.respondWithTools([{ name: "run_skill_script", args: { skill: "notes", ...args }, id: `c${index}` }]);
  });
  model = model.respond(new AIMessage("done"));
  const result = await toolLoopGraph(hook.tools, model).invoke(
    { messages: [new HumanMessage("go")] },
    { configurable: { thread_id: "t" } },
  );
  await hook.dispose();
  return result.messages
    .filter((message: unknown) => ToolMessage.isInstance(message))
    .map((message: ToolMessage) => JSON.parse(String(message.content)));
}

const cases = (["bubblewrap", "local"] as const).filter((executor) => executor === "local" || bubblewrap);

describe.each(cases)("skill paths as written (%s)", (executor) => {
  it("resolves relative, any-folder, host-path and workspace-variable forms; the skill folder stays read-only", async () => {
    const folder = skillFolder();
    const hostFile = path.join(folder.dir, "references", "notes.txt");
    const results = await runAll(executor, folder, [
      { command: "cat references/notes.txt" },
      { command: "python3 scripts/show.py references/notes.txt" },
      { command: "custom-scripts/run.sh ok" },
      { command: `cat ${hostFile}` },
      { command: `python3 ${path.join(folder.dir, "scripts", "show.py")} ${hostFile}` },
      { command: "echo made > report.txt && pwd", cwd: "$OUTPUT_DIR" },
      { command: 'echo "$WORK_DIR|$OUTPUT_DIR"' },
      { command: `echo x > ${hostFile}` },
      { command: "cp scripts/show.py references/copy.py" },
      { command: "cp out/report.txt references/notes.txt" },
      { command: "cp references/notes.txt out/copied.txt && cat out/copied.txt" },
    ]);
    expect(results).toHaveLength(11);
    const [relative, script, custom, host, hostScript, cwd, joined, write, copy, overwrite, copyOut] = results;
    expect(relative).toMatchObject({ status: "ok", stdout: "from references\n" });
    expect(script).toMatchObject({ status: "ok", stdout: "from references\n" });
    expect(custom).toMatchObject({ status: "ok", stdout: "custom: ok\n" });
    expect(host).toMatchObject({ status: "ok", stdout: "from references\n" });
    expect(hostScript).toMatchObject({ status: "ok", stdout: "from references\n" });
    expect(cwd).toMatchObject({ status: "ok" });
    expect(cwd.stdout).toMatch(/\/out\n$/);
    expect(joined).toMatchObject({ status: "ok" });
    expect(joined.stdout).toMatch(
      executor === "bubblewrap" ? /^\/workspace\|\/workspace\/out\n$/ : /^\/.+\|\/.+\/out\n$/,
    );
    // writing into the skill folder: refused by the policy or failing in the read-only sandbox, never done
    expect(write).toMatchObject({ status: "refused", reason: "skill-folder-read-only" });
    // a new name under references/ is not in the skill, so it means the workspace's (which has no references/)
    expect(copy).toMatchObject({ status: "failed" });
    expect(overwrite).toMatchObject({ status: "refused", reason: "skill-folder-read-only" });
    // a skill file copied out is only read
    expect(copyOut).toMatchObject({ status: "ok", stdout: "from references\n" });
    expect(readFileSync(hostFile, "utf8")).toBe("from references\n");
    expect(existsSync(path.join(folder.dir, "references", "copy.py"))).toBe(false);
  });
});

describe.skipIf(!bubblewrap)("a skill folder that is a git repository, reached by its host path", () => {
  it("shows the repository's sanitised configuration there too (control: trusted config runs the program)", async () => {
    const verdicts: Record<string, boolean> = {};
    for (const trustConfig of [false, true]) {
      const folder = skillFolder();
      // a committed skill with a modified tracked file and a clean filter: `git status` runs the filter
      const git = (...args: string[]) => execFileSync("git", ["-C", folder.dir, ...args]);
      git("init", "-q");
      git("config", "user.name", "t");
      git("config", "user.email", "t@t");
      writeFileSync(path.join(folder.dir, ".gitattributes"), "*.txt filter=x\n");
      git("add", "-A");
      git("commit", "-q", "-m", "first");
      writeFileSync(path.join(folder.dir, "references", "notes.txt"), "FROM references\n");
      const config = path.join(folder.dir, ".git", "config");
      writeFileSync(
        config,
        `${readFileSync(config, "utf8")}[filter "x"]\n\tclean = touch \\"$WORKSPACE/PWNED\\"; cat\n`,
      );
      const hook = createShellHook({
        skills: fixtureCatalog([
          fixtureSkill({ name: "notes", dir: folder.dir, file: path.join(folder.dir, "SKILL.md") }),
        ]),
        executor: createBubblewrapExecutor({ repository: { trustConfig } }),
        loadedSkills: () => ["notes"],
        workspaceRoot: path.join(folder.root, "ws"),
      });
      const model = fakeModel()
        .respondWithTools([
          {
            name: "run_skill_script",
            args: { skill: "notes", command: `git -C ${folder.dir} status --short` },
            id: "g",
          },
        ])
        .respond(new AIMessage("done"));
      const result = await toolLoopGraph(hook.tools, model).invoke(
        { messages: [new HumanMessage("go")] },
        { configurable: { thread_id: "t" } },
      );
      const workspace = hook.workspacePath("t");
      await hook.dispose();
      const message = result.messages.find((candidate: unknown) => ToolMessage.isInstance(candidate)) as ToolMessage;
      expect(JSON.parse(String(message.content))).toMatchObject({ executor: "bubblewrap" });
      verdicts[trustConfig ? "trusted" : "sanitised"] = existsSync(path.join(workspace, "PWNED"));
    }
    expect(verdicts).toEqual({ sanitised: false, trusted: true });
  });
});
