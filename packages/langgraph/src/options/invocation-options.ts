import type { SkillsInvocationOptions } from "./skills-runtime-options.js";

/** Reads per-invocation narrowing from `configurable.skills` or `context.skills` (`{ only?, exclude? }`), ignoring anything malformed. */
export function invocationOptions(...sources: unknown[]): SkillsInvocationOptions | undefined {
  for (const source of sources) {
    const skills = (source as { skills?: unknown } | undefined)?.skills;
    if (!skills || typeof skills !== "object") continue;
    const { only, exclude } = skills as Record<string, unknown>;
    const list = (value: unknown) =>
      Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
    return { only: list(only), exclude: list(exclude) };
  }
  return undefined;
}
