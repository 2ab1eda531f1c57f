import type { RunnableConfig } from "@langchain/core/runnables";
import type { CommandSkill } from "../policy/command-check-types.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import { loadedSkillNames } from "../runtime/loaded-skill-names.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { CommandCallInput } from "./command-call-input.js";
import type { CallSkills } from "./call-types.js";

function toCommandSkill(runtime: RuntimeView<never, "catalog">, name: string): CommandSkill | undefined {
  const skill = runtime.services.catalog.get(name);
  return skill ? { name: skill.name, dir: skill.dir, allowedTools: skill.allowedTools } : undefined;
}

/** Why a skill that exists may not run its scripts now (not read, or nothing tells whether it was), if so. */
function notRead(
  runtime: RuntimeView<"requireSkillRead">,
  name: string,
  names: readonly string[] | undefined,
): Refusal | undefined {
  if (!runtime.config.requireSkillRead) return undefined;
  if (names === undefined) {
    return refusal(
      "skill-not-read",
      `cannot tell whether skill '${name}' was read: no loaded-skill context is visible to the tool (see docs/shell.md, 'Which skills are loaded')`,
    );
  }
  if (!names.includes(name))
    return refusal("skill-not-read", `read skill '${name}' (read_skill) before running its scripts`);
  return undefined;
}

/** Resolves the skill of a run_skill_script call and checks it was read; also returns the loaded skills visible. */
export function skillContext(
  runtime: RuntimeView<"agentId" | "loadedSkills" | "requireSkillRead", "catalog", "seenLoaded">,
  input: CommandCallInput,
  config: RunnableConfig,
): CallSkills | Refusal {
  const names = loadedSkillNames(runtime, config);
  const loaded = (names ?? [])
    .map((name) => toCommandSkill(runtime, name))
    .filter((skill): skill is CommandSkill => skill !== undefined);
  if (input.tool === "shell") return { loaded };
  const name = input.skill ?? "";
  const skill = toCommandSkill(runtime, name);
  if (!skill) return refusal("skill-not-found", `skill '${name}' not found in the catalog`);
  if (skill.dir === "")
    return refusal("skill-has-no-folder", `skill '${name}' is defined in code and has no folder with scripts`);
  return notRead(runtime, name, names) ?? { skill, loaded };
}
