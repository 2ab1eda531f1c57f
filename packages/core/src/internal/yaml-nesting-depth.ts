/**
 * Deepest `[`/`{` nesting in a YAML text, counted without regard to quoting (an over-estimate, never an
 * under-estimate). Checked before parsing because the `yaml` package can exhaust memory on very deep flow nesting.
 */
export function maxBracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if ((code === 0x5d || code === 0x7d) && depth > 0) {
      depth -= 1;
    }
  }
  return deepest;
}
