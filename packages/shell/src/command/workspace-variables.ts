/**
 * Variables naming the workspace's folders, as a command sees them: `WORKSPACE` and `OUT_DIR` (`<workspace>/out`),
 * plus the names skills written for trpc-agent-go use: `WORKSPACE_DIR` and `WORK_DIR` (the workspace) and `OUTPUT_DIR`
 * (its `out/`). Both the command line (`$OUTPUT_DIR/report.md`) and the command's environment carry them.
 * @param workspaceDir the workspace as the command sees it (`/workspace` in the sandbox)
 */
export function workspaceVariables(workspaceDir: string): Record<string, string> {
  const out = `${workspaceDir}/out`;
  return {
    WORKSPACE: workspaceDir,
    OUT_DIR: out,
    WORKSPACE_DIR: workspaceDir,
    WORK_DIR: workspaceDir,
    OUTPUT_DIR: out,
  };
}

/** The names {@link workspaceVariables} sets (reserved: a tool call cannot set them). */
export const WORKSPACE_VARIABLE_NAMES: readonly string[] = Object.keys(workspaceVariables("/"));
