import { DEFAULT_FIXED_PATH } from "../policy/resolve-executable.js";
import type { CommandView, ExecutionRequest } from "./executor-types.js";
import { RUN_MARKER_ENV } from "./process-tree.js";

/**
 * The whole environment a command gets (nothing is inherited from the host): a fixed PATH, HOME and TMPDIR, the
 * WORKSPACE / OUT_DIR / SKILL_DIR locations as the command sees them, the run marker, then the request's extras.
 */
export function commandEnvironment(request: ExecutionRequest, view: CommandView, tmpDir: string, mapPath: (value: string) => string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: DEFAULT_FIXED_PATH,
    HOME: view.workspaceDir,
    TMPDIR: tmpDir,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    WORKSPACE: view.workspaceDir,
    OUT_DIR: `${view.workspaceDir}/out`,
  };
  if (view.skillDir) env.SKILL_DIR = view.skillDir;
  for (const [name, value] of Object.entries(request.env)) env[name] = mapPath(value);
  env[RUN_MARKER_ENV] = request.runId;
  return env;
}

/** Replaces a host folder prefix in `value` by the path the command sees it at. */
export function mapHostPrefix(value: string, mappings: ReadonlyArray<readonly [string, string]>): string {
  for (const [host, inside] of mappings) {
    if (value === host) return inside;
    if (value.startsWith(`${host}/`)) return inside + value.slice(host.length);
  }
  return value;
}
