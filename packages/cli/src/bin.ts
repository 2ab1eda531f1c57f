#!/usr/bin/env node
import { processIO } from "./io/cli-io.js";
import { runCli } from "./run-cli.js";

try {
  process.exitCode = await runCli(process.argv.slice(2), processIO());
} catch (error) {
  // Last resort (runCli reports command errors itself): one line, the stack only with SKILLGRAPH_DEBUG.
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.SKILLGRAPH_DEBUG) process.stderr.write(`${(error as Error).stack ?? ""}\n`);
  process.exitCode = 1;
}
