import { mkdirSync } from "node:fs";
import path from "node:path";
import { commandEnvironment } from "./command-environment.js";
import type { CommandExecutor, ExecutionRequest } from "./executor-types.js";
import { runCommand, spawnCommand, type SpawnSpec } from "./spawn-command.js";
import { ptyCommand } from "./pty-command.js";

function localSpec(request: ExecutionRequest): SpawnSpec {
  const tmpDir = path.join(request.workspaceDir, ".tmp");
  mkdirSync(tmpDir, { recursive: true });
  const view = { workspaceDir: request.workspaceDir, skillDir: request.skillDir };
  const env = commandEnvironment(request, view, tmpDir, (value) => value);
  const command = request.shellCommand !== undefined ? ["/bin/sh", "-c", request.shellCommand] : request.argv;
  const [file, ...args] = request.pty ? ptyCommand(command) : command;
  return { file: file as string, args, cwd: request.cwd, env };
}

/**
 * Runs commands as child processes of this Node process, each in its own process group with a scrubbed environment.
 * A timeout kills the whole group (TERM, then KILL); processes that left the group are found by their run marker.
 * No file-system or network isolation: use {@link createBubblewrapExecutor} for that.
 * @example const executor = createLocalExecutor();
 */
export function createLocalExecutor(): CommandExecutor {
  return {
    name: "local",
    view: (request) => ({ workspaceDir: request.workspaceDir, skillDir: request.skillDir }),
    start: (request) => spawnCommand(localSpec(request), request),
    run: (request) => runCommand(localSpec(request), request),
  };
}
