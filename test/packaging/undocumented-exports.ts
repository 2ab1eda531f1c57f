// The exports of entry points that have no doc comment, found with the TypeScript compiler: one program for every
// package at once, where a TypeDoc run catches an undocumented export only when it covers that one package. The kinds
// checked are typedoc.json's `requiredToBeDocumented`; `@internal` declarations and external packages' are left out,
// as TypeDoc (`excludeInternal`, `excludeExternals`) leaves them out of the reference.
import { resolve } from "node:path";
import ts from "typescript";

/** The declaration kinds typedoc.json requires a comment on (Function, Class, Interface, TypeAlias, Variable, Enum). */
function isRequiredKind(node: ts.Declaration): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isVariableDeclaration(node) ||
    ts.isEnumDeclaration(node)
  );
}

/** The doc comments of a declaration (a variable's are on its statement). */
function docsOf(node: ts.Declaration): ts.JSDoc[] {
  return ts.getJSDocCommentsAndTags(node).filter((doc): doc is ts.JSDoc => ts.isJSDoc(doc));
}

/** A doc comment with text or a tag (what TypeDoc counts as a comment). */
function hasDocComment(node: ts.Declaration): boolean {
  return docsOf(node).some((doc) => (doc.comment !== undefined && doc.comment !== "") || (doc.tags?.length ?? 0) > 0);
}

/** Tagged `@internal`: not in the reference. */
function isInternal(node: ts.Declaration): boolean {
  return docsOf(node).some((doc) => doc.tags?.some((tag) => tag.tagName.text === "internal"));
}

/** `entry: name` for each export of each entry point that the reference would show without a comment. */
export function undocumentedExports(entryPoints: readonly string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram({ rootNames: entryPoints.map((entry) => resolve(entry)), options });
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  for (const entry of entryPoints) {
    const file = program.getSourceFile(resolve(entry));
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) {
      problems.push(`${entry}: not a module`);
      continue;
    }
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = (symbol.declarations ?? []).filter(
        (node) => isRequiredKind(node) && !program.isSourceFileFromExternalLibrary(node.getSourceFile()),
      );
      if (declarations.length === 0 || declarations.some(isInternal) || declarations.some(hasDocComment)) continue;
      problems.push(`${entry}: ${exported.name}`);
    }
  }
  return problems;
}

/** The compiler options of a tsconfig file. */
export function compilerOptionsOf(tsconfig: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return parsed.options;
}
