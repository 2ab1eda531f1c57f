import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { closeCheckpointer, createCheckpointer } from "../packages/checkpoint/src/index.js";
import { describeCheckpointSaver } from "./suites/checkpoint-saver.suite.js";

describeCheckpointSaver({
  name: "SQLite (temp file)",
  async create() {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), "sg-sqlite-")), "sessions.db")}`;
    return { url, checkpointer: await createCheckpointer(url) };
  },
  async destroy({ url, checkpointer }) {
    await closeCheckpointer(checkpointer);
    rmSync(dirname(url.slice("sqlite:".length)), { recursive: true, force: true });
  },
});
