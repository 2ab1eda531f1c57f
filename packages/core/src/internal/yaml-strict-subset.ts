import { isAlias, isCollection, isMap, isScalar, visit, type Document, type Node, type YAMLMap } from "yaml";

/** One construct the reference's strictyaml refuses although standard YAML allows it. */
export interface StrictYamlViolation {
  message: string;
  /** Character offset in the YAML text. */
  offset: number;
}

/**
 * Lists what strictyaml (the reference's parser) rejects in a document the `yaml` package parsed fine: flow
 * collections (`[a, b]`, `{a: b}`), anchors, aliases, explicit tags, merge keys (`<<`), duplicate keys, and sibling
 * mappings indented differently (`a:\n  x: 1\nb:\n    y: 2`). At most `limit` are returned.
 * @param columnOf 1-based column of a text offset (for the indentation check).
 */
export function findStrictYamlViolations(
  document: Document,
  columnOf: (offset: number) => number,
  limit = 20,
): StrictYamlViolation[] {
  const violations: StrictYamlViolation[] = [];
  const add: AddViolation = (node, message) => {
    if (violations.length < limit) violations.push({ message, offset: node.range?.[0] ?? 0 });
  };
  visit(document, (_key, node) => {
    if (violations.length >= limit) return visit.BREAK;
    if (isAlias(node)) {
      add(node, `alias '*${node.source}' is not allowed (strict YAML: no anchors or aliases)`);
      return undefined;
    }
    if (isCollection(node) && node.flow) {
      add(
        node,
        `flow ${isMap(node) ? "mapping {...}" : "sequence [...]"} is not allowed (strict YAML: quote it, or use a block list/mapping)`,
      );
    }
    if ((isCollection(node) || isScalar(node)) && node.anchor !== undefined)
      add(node, `anchor '&${node.anchor}' is not allowed (strict YAML: no anchors or aliases)`);
    if ((isCollection(node) || isScalar(node)) && node.tag !== undefined)
      add(node, `tag '${node.tag}' is not allowed (strict YAML: no explicit types)`);
    if (isMap(node)) {
      checkSiblingIndentation(node, columnOf, add);
      checkKeys(node, add);
    }
    return undefined;
  });
  return violations;
}

type AddViolation = (node: Node, message: string) => void;

/** Mapping values of one mapping must start at the same column. */
function checkSiblingIndentation(map: YAMLMap, columnOf: (offset: number) => number, add: AddViolation): void {
  let siblingColumn: number | undefined;
  for (const pair of map.items) {
    if (!isMap(pair.value) || pair.value.range === undefined || pair.value.range === null) continue;
    const column = columnOf(pair.value.range[0]);
    siblingColumn ??= column;
    if (column !== siblingColumn)
      add(
        pair.value,
        `mapping indented to column ${column}, unlike the previous mapping at column ${siblingColumn} (strict YAML: indent sibling mappings alike)`,
      );
  }
}

/** No key twice in one mapping, and no plain merge key `<<`. */
function checkKeys(map: YAMLMap, add: AddViolation): void {
  const seen = new Set<string>();
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    if (seen.has(key)) add(pair.key as Node, `duplicate key '${key}' is not allowed`);
    if (key === "<<" && isScalar(pair.key) && pair.key.type === "PLAIN")
      add(pair.key, "merge key '<<' is not allowed (strict YAML)");
    seen.add(key);
  }
}
