import { describe, expect, it } from "vitest";
import { defaultSkillDriftPolicy, resolveSkillDrift, SkillDriftError } from "./skill-drift-policy.js";

const drift = [
  { name: "pdf", kind: "changed" as const, recordedHash: "a", currentHash: "b" },
  { name: "xlsx", kind: "removed" as const, recordedHash: "c" },
];

describe("resolveSkillDrift", () => {
  it("reloads changed skills, unloads removed ones and writes a notice for the model by default", () => {
    expect(defaultSkillDriftPolicy).toBe("reload");
    const resolution = resolveSkillDrift(drift);
    expect(resolution.reload).toEqual(["pdf"]);
    expect(resolution.unload).toEqual(["xlsx"]);
    expect(resolution.notice).toContain("Skill 'pdf' changed on disk");
    expect(resolution.notice).toContain("Skill 'xlsx' was removed");
  });

  it("keeps everything silently under keep", () => {
    expect(resolveSkillDrift(drift, "keep")).toEqual({ reload: [], unload: [], keep: ["pdf", "xlsx"], notice: undefined });
  });

  it("throws SkillDriftError under fail, listing the drifted skills", () => {
    expect(() => resolveSkillDrift(drift, "fail")).toThrow(/'pdf' \(changed\), 'xlsx' \(removed\)/);
    expect(SkillDriftError.isInstance((() => { try { resolveSkillDrift(drift, "fail"); } catch (e) { return e; } })())).toBe(true);
  });

  it("does nothing when nothing drifted, even under fail", () => {
    expect(resolveSkillDrift([], "fail").notice).toBeUndefined();
  });
});
