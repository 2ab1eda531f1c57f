import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { undocumentedExports } from "./undocumented-exports.js";

describe("undocumentedExports", () => {
  it("names each export of the kinds the reference needs documented that has no doc comment", () => {
    const dir = mkdtempSync(join(tmpdir(), "undocumented-"));
    writeFileSync(
      join(dir, "inner.ts"),
      [
        "/** Documented. */ export function documented() {}",
        "export function bare() {}",
        "export const bareValue = 1;",
        "/** A value. */ export const value = 2;",
        "export interface BareShape { a: number }",
        "export type BareAlias = string;",
        "/** @internal */ export function hidden() {}",
        "export class BareClass {}",
        "/** @deprecated use documented */ export function tagged() {}",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "index.ts"),
      'export * from "./inner.js";\nexport { bare as renamed } from "./inner.js";\n',
    );
    const problems = undocumentedExports([join(dir, "index.ts")], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
    });
    expect(problems.map((problem) => problem.split(": ")[1]).sort()).toEqual([
      "BareAlias",
      "BareClass",
      "BareShape",
      "bare",
      "bareValue",
      "renamed",
    ]);
  });
});
