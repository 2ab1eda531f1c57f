import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { SkillSource } from "./skill-source.js";
import { skillsFromDirectory } from "./directory-source.js";

/** Where to look for the conventional skill folders. */
export interface ConventionalSourcesOptions {
  /** Project root. @default process.cwd() */
  cwd?: string;
  /** User home. @default os.homedir() */
  home?: string;
  /** Include the user-level folders (~/.agents/skills, ~/.claude/skills, ~/.codex/skills). @default true */
  user?: boolean;
  /** Include the project-level folders (.agents/skills, .claude/skills, skills). @default true */
  project?: boolean;
}

/** User-level skill folders other tools install into, highest precedence first. */
export const USER_SKILL_FOLDERS = [".agents/skills", ".claude/skills", ".codex/skills"] as const;
/** Project-level skill folders, highest precedence first. */
export const PROJECT_SKILL_FOLDERS = [".agents/skills", ".claude/skills", "skills"] as const;

/**
 * The conventional locations as sources: user folders (layer `user`) and project folders (layer `project`).
 * Within a layer the earlier folder wins a name clash; missing folders are simply empty.
 */
export function conventionalSources(options: ConventionalSourcesOptions = {}): SkillSource[] {
  const cwd = resolve(options.cwd ?? process.cwd());
  const home = options.home ?? homedir();
  const sources: SkillSource[] = [];
  if (options.project !== false) {
    for (const folder of PROJECT_SKILL_FOLDERS)
      sources.push(skillsFromDirectory(join(cwd, folder), { layer: "project", optional: true }));
  }
  if (options.user !== false) {
    const taken = new Set(sources.map((source) => source.id));
    for (const folder of USER_SKILL_FOLDERS) {
      // When the project is the home folder, its folders already count as project folders.
      const source = skillsFromDirectory(join(home, folder), { layer: "user", optional: true });
      if (!taken.has(source.id)) sources.push(source);
    }
  }
  return sources;
}
