// The bash grammar (tree-sitter-bash, compiled to WASM and shipped in its package), loaded once per process.
import { createRequire } from "node:module";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";

export type { Node as SyntaxNode } from "web-tree-sitter";

let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/**
 * Loads the bash grammar (about 60 ms, once per process; later calls return the same promise). The WASM files ship
 * inside `web-tree-sitter` and `tree-sitter-bash`: nothing is downloaded.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    const created = new Parser();
    created.setLanguage(language);
    parser = created;
    return created;
  })();
  return loading;
}

/** True once {@link loadBashParser} finished: {@link withBashTree} works synchronously from then on. */
export function bashParserReady(): boolean {
  return parser !== undefined;
}

/**
 * Parses `line` with the bash grammar and hands the tree's root to `use` (the tree is freed afterwards, so `use`
 * must not keep nodes). Throws when the grammar is not loaded yet (await {@link loadBashParser} first). With `cancel`,
 * a parse still running when `cancel.spent()` turns true stops, and `cancel.onCancel()` is returned.
 */
export function withBashTree<T>(
  line: string,
  use: (root: Node) => T,
  cancel?: { spent: () => boolean; onCancel: () => T },
): T {
  if (!parser) throw new Error("the bash parser is not loaded: await loadBashParser() first");
  // the grammar cancels a parse whose progress callback returns true (its typings say void)
  const progressCallback = cancel ? ((() => cancel.spent()) as () => void) : undefined;
  const tree: Tree | null = parser.parse(line, null, progressCallback ? { progressCallback } : undefined);
  if (!tree && cancel?.spent()) {
    parser.reset();
    return cancel.onCancel();
  }
  if (!tree) throw new Error("the bash parser returned no tree");
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
