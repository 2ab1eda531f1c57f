import { randomUUID } from "node:crypto";
import path from "node:path";
import type { RunnableConfig } from "@langchain/core/runnables";
import { interrupt } from "@langchain/langgraph";
import { SANDBOX_ENVIRONMENT, SANDBOX_WORKSPACE } from "../executor/bubblewrap-executor.js";
import {
  environmentIsReady,
  installCommand,
  markEnvironmentReady,
  prepareEnvironmentFolder,
  readSkillRequirements,
  withInstallFolder,
  type SkillRequirements,
} from "../environments/skill-environments.js";
import type { ShellApprovalRequest } from "../policy/approval-types.js";
import type { CommandSkill } from "../policy/plan-command.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import { invisibleField } from "../policy/invisible-characters.js";

/** Installs in progress, by environment folder (two calls for one skill share one install). */
const installing = new Map<string, Promise<{ ok: true } | Refusal>>();

/**
 * The skill's environment, ready to use: undefined when the skill declares no requirements (or environments are off),
 * else its host folder, installed first when needed — after approval (LangGraph `interrupt()`, unless configured
 * otherwise), with the network on for the install only, the environment writable only while installing. The install
 * runs in a fresh empty folder (the thread's workspace and the skill folder are not mounted) and reads only the
 * checked, canonical requirement lines.
 */
export async function prepareSkillEnvironment(
  runtime: RuntimeView<
    "killAfterOutputBytes" | "killGraceMs" | "maxOutputBytes" | "skillEnvironments",
    "catalog" | "executor"
  >,
  skill: CommandSkill,
  _workspaceDir: string,
  _config: RunnableConfig,
): Promise<{ ok: true; hostDir?: string } | Refusal> {
  const options = runtime.config.skillEnvironments;
  if (!options) return { ok: true };
  const declared = runtime.services.catalog.get(skill.name)?.dependencies;
  const requirements = await readSkillRequirements({ ...skill, dependencies: declared }, options.root);
  if (requirements === undefined) return { ok: true };
  if ("error" in requirements) return refusal("missing-requirements", requirements.error);
  if (environmentIsReady(requirements)) return { ok: true, hostDir: requirements.hostDir };
  const shown = `pip install ${requirements.packages.join(" ")}`;
  if (options.approve === "never") {
    return refusal(
      "missing-requirements",
      `skill '${skill.name}' needs Python packages (${requirements.packages.join(", ")}) and installing them is turned off`,
    );
  }
  if (options.approve === "interrupt") {
    const request: ShellApprovalRequest = {
      type: "skillgraph/shell-approval",
      tool: "run_skill_script",
      skill: skill.name,
      command: `${shown}  (into a new environment for skill '${skill.name}', network on while installing)`,
      argv: ["pip", "install", ...requirements.packages],
      cwd: ".",
      executor: runtime.services.executor.name,
    };
    Object.assign(request, invisibleField(request.command));
    const answer = interrupt<ShellApprovalRequest, unknown>(request);
    if (!(answer && typeof answer === "object" && (answer as { approved?: unknown }).approved === true)) {
      return refusal(
        "approval-denied",
        `installing the requirements of skill '${skill.name}' (${shown}) was not approved`,
      );
    }
  }
  let pending = installing.get(requirements.hostDir);
  if (!pending) {
    pending = install(runtime, requirements, skill).finally(() => installing.delete(requirements.hostDir));
    installing.set(requirements.hostDir, pending);
  }
  const installed = await pending;
  return installed.ok ? { ok: true, hostDir: requirements.hostDir } : installed;
}

async function install(
  runtime: RuntimeView<"killAfterOutputBytes" | "killGraceMs" | "maxOutputBytes" | "skillEnvironments", "executor">,
  requirements: SkillRequirements,
  skill: CommandSkill,
): Promise<{ ok: true } | Refusal> {
  const options = runtime.config.skillEnvironments;
  if (!options) return { ok: true };
  prepareEnvironmentFolder(requirements);
  // an empty folder of its own stands in for the workspace: nothing the model staged is visible to pip or to the code
  // a package runs while it builds
  return withInstallFolder(requirements, (installDir) => runInstall(runtime, requirements, skill, installDir));
}

async function runInstall(
  runtime: RuntimeView<"killAfterOutputBytes" | "killGraceMs" | "maxOutputBytes" | "skillEnvironments", "executor">,
  requirements: SkillRequirements,
  skill: CommandSkill,
  installDir: string,
): Promise<{ ok: true } | Refusal> {
  const options = runtime.config.skillEnvironments;
  if (!options) return { ok: true };
  const sandboxed = runtime.services.executor.name === "bubblewrap";
  const envDir = sandboxed ? SANDBOX_ENVIRONMENT : requirements.hostDir;
  const requirementsPath = `${sandboxed ? SANDBOX_WORKSPACE : installDir}/requirements.txt`;
  const result = await runtime.services.executor.run({
    argv: installCommand(envDir, requirementsPath, options.pipArgs),
    cwd: installDir,
    workspaceDir: installDir,
    skillName: skill.name,
    skillEnvironment: { hostDir: requirements.hostDir, writable: true },
    readOnlyPaths: options.pipArgs.filter((arg) => path.isAbsolute(arg)),
    network: true,
    env: {},
    timeoutMs: options.installTimeoutMs,
    killGraceMs: runtime.config.killGraceMs,
    maxOutputBytes: runtime.config.maxOutputBytes,
    killAfterOutputBytes: runtime.config.killAfterOutputBytes,
    runId: randomUUID(),
  });
  if (result.exitCode !== 0) {
    const tail = `${result.stdout}${result.stderr}`.trim().split("\n").slice(-6).join("\n");
    return refusal(
      "missing-requirements",
      `installing the requirements of skill '${skill.name}' failed (${result.timedOut ? "timed out" : `exit ${result.exitCode}`}):\n${tail}`,
    );
  }
  const marked = await markEnvironmentReady(requirements);
  return marked.ok ? { ok: true } : refusal("missing-requirements", marked.message);
}
