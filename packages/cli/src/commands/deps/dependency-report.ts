// What a skill declares it needs (tama's `depends`: bins, apt, uv; a requirements file) and what is missing here.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { SkillMetadata } from "@skillgraph/core";
import { skillPythonEnvironment, type SkillPythonEnvironment } from "@skillgraph/shell";

/** One skill's dependencies and their state on this machine. */
export interface DependencyReport {
  skill: string;
  dir: string;
  /** Programs on PATH: `path` when found. */
  bins: Array<{ name: string; path: string | null }>;
  /** Debian packages: `installed` is null when dpkg is not available to ask. */
  apt: Array<{ name: string; installed: boolean | null }>;
  /** Python packages and their environment, or the error that stops installing them. */
  python: SkillPythonEnvironment | { error: string } | null;
  /** The command that installs the missing Debian packages (run by the user, as root), or null. */
  aptCommand: string | null;
}

/** Looks a program up on PATH (only plain names; no shell). */
export function findOnPath(name: string, path: string | undefined): string | null {
  if (name.includes("/") || name === "") return null;
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Whether a Debian package is installed (dpkg-query, fixed argv); null when dpkg-query cannot say. */
export function debianPackageInstalled(name: string, path: string | undefined): boolean | null {
  const dpkg = findOnPath("dpkg-query", path);
  if (!dpkg) return null;
  const result = spawnSync(dpkg, ["-W", "-f=${Status}", name], { encoding: "utf8", env: { PATH: path ?? "" } });
  if (result.error) return null;
  return result.status === 0 && result.stdout.includes("install ok installed");
}

/** The dependency report of one skill. */
export async function dependencyReport(
  skill: SkillMetadata,
  options: { path: string | undefined; environmentRoot?: string },
): Promise<DependencyReport> {
  const declared = skill.dependencies ?? { bins: [], apt: [], uv: [] };
  const bins = declared.bins.map((name) => ({ name, path: findOnPath(name, options.path) }));
  const apt = declared.apt.map((name) => ({ name, installed: debianPackageInstalled(name, options.path) }));
  const python =
    (await skillPythonEnvironment(skill, options.environmentRoot ? { root: options.environmentRoot } : {})) ?? null;
  const missingApt = apt.filter((entry) => entry.installed !== true).map((entry) => entry.name);
  return {
    skill: skill.name,
    dir: skill.dir,
    bins,
    apt,
    python,
    aptCommand: missingApt.length > 0 ? `sudo apt-get install -y ${missingApt.join(" ")}` : null,
  };
}

/** Whether anything the report lists is missing. */
export function somethingMissing(report: DependencyReport): boolean {
  return (
    report.bins.some((entry) => entry.path === null) ||
    report.apt.some((entry) => entry.installed !== true) ||
    (report.python !== null && ("error" in report.python || !report.python.installed))
  );
}
