import { describe, expect, it } from "vitest";
import { closeCheckpointer, createCheckpointer } from "../create-checkpointer/create-checkpointer.js";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { withPruning } from "../pruning/with-pruning.js";
import { saverBackend } from "./saver-backend.js";
import { assertCheckedSaverVersion, installedSaverVersion } from "./saver-versions.js";

describe("the savers' internals are reached only on checked release lines", () => {
  it("the installed SQLite and PostgreSQL saver packages are on a checked line", () => {
    expect(installedSaverVersion("sqlite")).toMatch(/^1\.0\./);
    expect(installedSaverVersion("postgres")).toMatch(/^1\.0\./);
    expect(() => assertCheckedSaverVersion("postgres", installedSaverVersion("postgres"))).not.toThrow();
  });

  it("a faked newer saver version fails loudly, naming the package, the version and what to install", async () => {
    const saver = await createCheckpointer("sqlite::memory:");
    expect(saverBackend(saver).kind).toBe("sqlite");
    const newer = (kind: "sqlite" | "postgres") => (kind === "sqlite" ? "1.1.0" : "2.0.0");
    const error = (() => {
      try {
        saverBackend(withPruning(saver, { keepLast: 2 }), newer);
      } catch (caught) {
        return caught;
      }
    })();
    expect(CheckpointerError.isInstance(error)).toBe(true);
    expect((error as CheckpointerError).reason).toBe("unsupported-saver");
    expect((error as Error).message).toMatch(
      /^@langchain\/langgraph-checkpoint-sqlite 1\.1\.0 is not a release this package was checked against \(1\.0\.x\).*Install @langchain\/langgraph-checkpoint-sqlite@1\.0/,
    );
    expect(() => assertCheckedSaverVersion("postgres", "2.0.0")).toThrow(/checkpoint-postgres 2\.0\.0/);
    expect(() => assertCheckedSaverVersion("postgres", undefined)).toThrow(/version unreadable/);
    await closeCheckpointer(saver);
  });
});
