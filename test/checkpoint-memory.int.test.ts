import { createCheckpointer } from "../packages/checkpoint/src/index.js";
import { describeCheckpointSaver } from "./suites/checkpoint-saver.suite.js";

describeCheckpointSaver({
  name: "memory",
  async create() {
    return { url: "memory:", checkpointer: await createCheckpointer("memory:") };
  },
  async destroy() {},
});
