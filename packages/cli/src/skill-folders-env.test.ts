// SKILLGRAPH_SKILLS (Ollama's OLLAMA_SKILLS under skillgraph's name): comma-separated skill folders every command reads.
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../test/support/skill-tree.js";
import { captureIO } from "./__fixtures__/capture-io.js";
import { runCli } from "./run-cli.js";

describe("SKILLGRAPH_SKILLS", () => {
  it("adds every comma-separated folder to what a command reads", async () => {
    const root = writeTree({
      "a/one/SKILL.md": skillMd("one", "First."),
      "b/two/SKILL.md": skillMd("two", "Second."),
    });
    const io = captureIO(root, { SKILLGRAPH_SKILLS: `${root}/a,${root}/b` });
    expect(await runCli(["list", "--json"], io)).toBe(0);
    const names = (JSON.parse(io.out()) as { skills: Array<{ name: string }> }).skills.map((skill) => skill.name);
    expect(names).toEqual(expect.arrayContaining(["one", "two"]));
  });
});
