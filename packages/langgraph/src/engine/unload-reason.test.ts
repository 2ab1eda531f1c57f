import { describe, expect, it } from "vitest";
import { unloadReason } from "./unload-reason.js";

describe("unloadReason", () => {
  const base = { inCatalog: true, mode: "session" as const, loadedCount: 1, maxLoadedSkills: 8 };
  it("names the cause: removed, evicted by the cap, or ended by the load mode", () => {
    expect(unloadReason({ ...base, inCatalog: false })).toBe("it was removed from the skill registry");
    expect(unloadReason({ ...base, loadedCount: 2, maxLoadedSkills: 2 })).toBe(
      "it is no longer loaded: evicted to keep at most 2 skills loaded (maxLoadedSkills; the least recently used skill goes first)",
    );
    expect(unloadReason({ ...base, mode: "turn", loadedCount: 0 })).toContain("load mode 'turn') and that turn ended");
    expect(unloadReason({ ...base, mode: "once", loadedCount: 0 })).toContain("one model call (load mode 'once')");
    expect(unloadReason(base)).toBe("it is no longer loaded: it was unloaded");
  });
});
