import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { artifactStoreFor } from "../../call/command-artifacts.js";
import { refusalPayload } from "../../call/tool-payload.js";
import { refusal } from "../../policy/refusal.js";
import { threadIdOf } from "../../runtime/loaded-skill-names.js";
import type { RuntimeView } from "../../runtime/shell-runtime.js";
import {
  READ_OUTPUT_DEFAULT_BYTES,
  READ_OUTPUT_MAX_BYTES,
  READ_OUTPUT_MIN_BYTES,
  readOutputRef,
} from "../../workspace/read-output-ref.js";

/** Input of `read_output`. */
export const readOutputSchema = z.object({
  ref: z
    .string()
    .describe(
      "The ref of a file an earlier run_skill_script / shell result gave: workspace://out/report.md (output_files[].ref; any file of the workspace) or artifact://name[@version] (artifacts[].ref).",
    ),
  offset: z.number().int().min(0).optional().describe("Byte to start at (default 0); pass next_offset to read on."),
  max_bytes: z
    .number()
    .int()
    .min(READ_OUTPUT_MIN_BYTES)
    .max(READ_OUTPUT_MAX_BYTES)
    .optional()
    .describe(`Bytes to return at most (default ${READ_OUTPUT_DEFAULT_BYTES}, at most ${READ_OUTPUT_MAX_BYTES}).`),
});

/**
 * The `read_output` tool: reads a file back by its `ref` (trpc-agent-go's read of an output file): a window of text
 * from the thread's workspace or artifact store, with `next_offset` when more follows. Runs no command.
 * @param runtime the shared shell runtime
 */
export function createReadOutputTool(runtime: RuntimeView<"artifacts", "workspaces">) {
  return tool(
    async ({ ref, offset, max_bytes }, config) => {
      const threadId = threadIdOf(config);
      if (threadId === undefined)
        return refusalPayload(
          refusal("invalid-input", "read_output needs a thread id (configurable.thread_id): files are kept per thread"),
        );
      const read = await readOutputRef(
        {
          ref,
          ...(offset === undefined ? {} : { offset }),
          ...(max_bytes === undefined ? {} : { maxBytes: max_bytes }),
        },
        {
          threadId,
          workspaceDir: runtime.services.workspaces.pathFor(threadId),
          artifacts: artifactStoreFor(runtime, config),
        },
      );
      return "ok" in read ? refusalPayload(read) : JSON.stringify(read);
    },
    {
      name: "read_output",
      description:
        "Read a file back by the ref an earlier command result gave it (output_files[].ref, artifacts[].ref): returns its text (a window; next_offset when more follows), size and type. Runs nothing.",
      schema: readOutputSchema,
    },
  );
}
