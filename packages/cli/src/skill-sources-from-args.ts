import { conventionalSources, skillsFromDirectory, type SkillSource } from "@skillgraph/core";

/** The sources a command reads: each `--source DIR` (explicit), or by default the conventional locations plus ./skills. */
export function skillSourcesFromArgs(sourceDirs: readonly string[] | undefined, cwd: string, env: NodeJS.ProcessEnv): SkillSource[] {
  if (sourceDirs && sourceDirs.length > 0) return sourceDirs.map((dir) => skillsFromDirectory(resolveFrom(cwd, dir)));
  return conventionalSources({ cwd, home: env.HOME });
}

function resolveFrom(cwd: string, dir: string): string {
  return dir.startsWith("/") ? dir : `${cwd}/${dir}`;
}
