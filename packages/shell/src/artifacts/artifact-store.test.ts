import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { artifactStoreFromBaseStore, isArtifactName } from "./artifact-store.js";

describe("artifactStoreFromBaseStore", () => {
  it("keeps versions per name and thread, loads the newest by default and lists one entry per name", async () => {
    const artifacts = artifactStoreFromBaseStore(new InMemoryStore());
    const bytes = (text: string) => Buffer.from(text);
    await artifacts.save("t", {
      name: "report.md",
      bytes: bytes("v1"),
      mimeType: "text/markdown",
      savedFrom: "out/report.md",
    });
    await artifacts.save("t", {
      name: "report.md",
      bytes: bytes("v2"),
      mimeType: "text/markdown",
      savedFrom: "out/report.md",
    });
    await artifacts.save("other", {
      name: "report.md",
      bytes: bytes("other"),
      mimeType: "text/markdown",
      savedFrom: "out/report.md",
    });
    expect((await artifacts.load("t", "report.md"))?.bytes.toString()).toBe("v2");
    expect((await artifacts.load("t", "report.md", 1))?.bytes.toString()).toBe("v1");
    expect(await artifacts.load("t", "missing.md")).toBeUndefined();
    expect((await artifacts.list("t")).map((artifact) => [artifact.name, artifact.version])).toEqual([
      ["report.md", 2],
    ]);
  });

  it("refuses names that would collide with version keys or are not one file name", async () => {
    for (const bad of ["report.md@1", "../x", "a/b", ".hidden", "", "x".repeat(200)])
      expect(isArtifactName(bad), bad).toBe(false);
    const artifacts = artifactStoreFromBaseStore(new InMemoryStore());
    await expect(
      artifacts.save("t", { name: "report.md@1", bytes: Buffer.from("x"), mimeType: "text/plain", savedFrom: "out/x" }),
    ).rejects.toThrow(/artifact name/);
  });

  it("checks the quota's numbers, naming the bad one", () => {
    expect(() => artifactStoreFromBaseStore(new InMemoryStore(), { maxBytesPerThread: 0 })).toThrow(
      "Invalid option 'maxBytesPerThread': must be a positive integer",
    );
    expect(() => artifactStoreFromBaseStore(new InMemoryStore(), { maxVersionsPerThread: 2_000_000 })).toThrow(
      "Invalid option 'maxVersionsPerThread': must be a positive integer no larger than 1000000",
    );
  });
});
