import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createShellHook } from "../../hook/create-shell-hook.js";
import { fixtureCatalog, fixtureSkill, prompterDir } from "../../__fixtures__/fixture-catalog.js";

const catalog = fixtureCatalog([fixtureSkill({ name: "prompter", dir: prompterDir })]);

describe.each(["local", "bubblewrap"] as const)("interactive sessions (%s)", (executor) => {
  const hook = createShellHook({ skills: catalog, executor, loadedSkills: () => ["prompter"] });
  const tool = (name: string) => hook.tools.find((candidate) => candidate.name === name)!;
  const call = async (name: string, input: Record<string, unknown>, threadId = "chat-1") =>
    JSON.parse(String(await tool(name).invoke(input, { configurable: { thread_id: threadId } })));

  // Reads until `expected` has arrived (a loaded machine may deliver a prompt after the first poll returns).
  async function readUntil(
    first: { output: string; status: string; session_id?: string },
    sessionId: string,
    expected: string,
  ) {
    let output = first.output;
    let last = first;
    for (let attempt = 0; attempt < 20 && !output.includes(expected) && last.status === "running"; attempt += 1) {
      last = await call("shell_session_poll", { session_id: sessionId, wait_ms: 500 });
      output += last.output;
    }
    return { ...last, output };
  }

  // Reads until the program has exited, or until 30 s have passed (then the status says `running` and the test fails):
  // the last line of output can arrive before the exit is seen, more so on a loaded machine.
  async function readUntilExit(first: { output: string; status: string }, sessionId: string) {
    let output = first.output;
    let last = first;
    for (const deadline = Date.now() + 30_000; last.status === "running" && Date.now() < deadline;) {
      last = await call("shell_session_poll", { session_id: sessionId, wait_ms: 500 });
      output += last.output;
    }
    return { ...last, output };
  }

  it("answers a program that prompts twice through write and poll", async () => {
    const started = await call("run_skill_script", {
      skill: "prompter",
      command: "scripts/ask-twice.sh",
      interactive: true,
    });
    expect(started).toMatchObject({ status: "running", session_id: expect.stringMatching(/^session-/) });
    expect((await readUntil(started, started.session_id, "Name? ")).output).toBe("Name? ");
    const second = await readUntil(
      await call("shell_session_write", { session_id: started.session_id, input: "Ada\n" }),
      started.session_id,
      "Color? ",
    );
    expect(second).toMatchObject({ status: "running", output: "Color? " });
    // once the output has gone quiet on the unfinished line, the poll says the program waits for input
    const waiting = await call("shell_session_poll", { session_id: started.session_id, wait_ms: 400 });
    expect(waiting).toMatchObject({
      status: "running",
      output: "",
      interaction: { waiting_for_input: true, prompt: "Color? " },
    });
    const done = await readUntilExit(
      await call("shell_session_write", { session_id: started.session_id, input: "blue\n", wait_ms: 5_000 }),
      started.session_id,
    );
    expect(done).toMatchObject({ status: "exited", exit_code: 0, output: "Hello Ada, you like blue\n" });
    expect(await call("shell_session_poll", { session_id: started.session_id })).toMatchObject({
      status: "refused",
      reason: "session-not-found",
    });
  });

  it("keeps sessions per thread and kills them on kill and on dispose", async () => {
    const first = await call(
      "run_skill_script",
      { skill: "prompter", command: "scripts/ask-twice.sh", interactive: true },
      "chat-a",
    );
    const second = await call(
      "run_skill_script",
      { skill: "prompter", command: "scripts/ask-twice.sh", interactive: true },
      "chat-b",
    );
    expect(await call("shell_session_poll", { session_id: first.session_id, wait_ms: 0 }, "chat-b")).toMatchObject({
      status: "refused",
      reason: "session-not-found",
    });
    expect(await call("shell_session_kill", { session_id: first.session_id }, "chat-a")).toMatchObject({
      status: "exited",
    });
    await hook.dispose("chat-b");
    expect(await call("shell_session_poll", { session_id: second.session_id, wait_ms: 0 }, "chat-b")).toMatchObject({
      status: "refused",
      reason: "session-not-found",
    });
  });

  it("removes a session's run folder when the program ends, unless the run wrote in it", async () => {
    const shell = createShellHook({ skills: catalog, executor, alwaysVisible: true });
    const run = async (name: string, input: Record<string, unknown>) =>
      JSON.parse(
        String(await shell.tools.find((t) => t.name === name)!.invoke(input, { configurable: { thread_id: "runs" } })),
      );
    const runs = () => readdirSync(join(shell.workspacePath("runs"), "runs"));
    const answered = await run("shell", { command: 'read -r line && echo "got $line"', interactive: true });
    let last = await run("shell_session_write", { session_id: answered.session_id, input: "x\n", wait_ms: 5_000 });
    for (const deadline = Date.now() + 30_000; last.status === "running" && Date.now() < deadline;)
      last = await run("shell_session_poll", { session_id: answered.session_id, wait_ms: 500 });
    expect(last).toMatchObject({ status: "exited", exit_code: 0 });
    expect(runs()).toEqual([]); // exited on its own: the empty folder is gone before the poll says so
    const killed = await run("shell", { command: "sleep 299", interactive: true });
    const writer = await run("shell", {
      command: 'echo kept > "$RUN_DIR/log.txt" && echo written && sleep 299',
      interactive: true,
    });
    // the folder must hold the file before the kill: wait for the line printed after it was written
    for (let seen = writer.output as string; !seen.includes("written");)
      seen += (await run("shell_session_poll", { session_id: writer.session_id, wait_ms: 500 })).output;
    expect(runs()).toHaveLength(2);
    await run("shell_session_kill", { session_id: killed.session_id });
    await run("shell_session_kill", { session_id: writer.session_id });
    const kept = runs();
    expect(kept).toHaveLength(1); // the killed run that wrote nothing is gone; the one that wrote keeps its folder
    expect(readdirSync(join(shell.workspacePath("runs"), "runs", kept[0]!))).toEqual(["log.txt"]);
    await shell.dispose();
  });

  it("leaves no process behind after dispose()", async () => {
    const shell = createShellHook({ skills: catalog, executor, alwaysVisible: true });
    const start = shell.tools.find((candidate) => candidate.name === "shell")!;
    const before = new Set((await findAllSleeps()).map(String));
    await start.invoke({ command: "sleep 299", interactive: true }, { configurable: { thread_id: "t" } });
    // the interactive start answers after a second at most; on a loaded machine the command may not have started yet
    const started = await untilNewSleeps(before);
    expect(started).toHaveLength(1);
    await shell.dispose();
    expect((await findAllSleeps()).filter((pid) => !before.has(String(pid)))).toHaveLength(0);
  });
});

/** Waits (bounded: 30 s) until some `sleep 299` not in `before` runs; answers the new ones (empty when none came). */
async function untilNewSleeps(before: ReadonlySet<string>): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = (await findAllSleeps()).filter((pid) => !before.has(String(pid)));
    if (found.length > 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function findAllSleeps(): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8")).split("\0");
      if (cmdline[0]?.endsWith("sleep") && cmdline[1] === "299") pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

describe.each(["local", "bubblewrap"] as const)("pseudo-terminal sessions (%s)", (executor) => {
  it("gives the program a terminal when pty is set", async () => {
    const hook = createShellHook({ skills: catalog, executor, alwaysVisible: true });
    const shell = hook.tools.find((candidate) => candidate.name === "shell")!;
    const config = { configurable: { thread_id: "pty" } };
    const withPty = JSON.parse(String(await shell.invoke({ command: "tty", pty: true }, config)));
    expect(withPty).toMatchObject({ status: "ok" });
    expect(withPty.stdout).toMatch(/^\/dev\/pts\/\d+\r?\n$/);
    const withoutPty = JSON.parse(String(await shell.invoke({ command: "tty" }, config)));
    expect(withoutPty.stdout).toBe("not a tty\n");
  });
});
