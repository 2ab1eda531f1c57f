import { describe, expect, it } from "vitest";
import { parseRequirementLine } from "./requirement-line.js";

describe("parseRequirementLine", () => {
  it.each([
    ["numpy >= 1.24, < 2", "numpy>=1.24,<2"],
    ["pkg [a , b] ==1.0", "pkg[a,b]==1.0"],
    ["pkg;python_version>='3.8'", "pkg; python_version >= '3.8'"],
    [
      "pkg ; os_name == 'posix' and (extra == 'x' or sys_platform != 'win32')",
      "pkg; os_name == 'posix' and (extra == 'x' or sys_platform != 'win32')",
    ],
    ["pkg; 'linux' in sys_platform", "pkg; 'linux' in sys_platform"],
    ["pkg; sys_platform not in 'win32'", "pkg; sys_platform not in 'win32'"],
  ])("gives pip the canonical form of %s", (line, canonical) => {
    expect(parseRequirementLine(line)).toEqual({ ok: true, requirement: canonical });
  });

  it.each([
    ["pkg>=1.*", /wildcard/],
    ["pkg==1.0 extra", /after the requirement|version/],
    ["pkg; python_version >= '3' --pre", /marker/],
    ["evil.tar", /archive/],
  ])("says what is wrong with %s", (line, message) => {
    const parsed = parseRequirementLine(line);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toMatch(message);
  });
});
