/**
 * Compiles a glob over `/`-separated relative paths: `*` and `?` stay inside one segment, `**` spans segments,
 * `{a,b}` alternates.
 * @example globToRegExp("**\/*.{md,csv}").test("reports/q1.md") // true
 */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  let index = 0;
  let braces = 0;
  while (index < glob.length) {
    const char = glob[index] as string;
    if (char === "*" && glob[index + 1] === "*") {
      const slash = glob[index + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      index += slash ? 3 : 2;
      continue;
    }
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") {
      braces += 1;
      source += "(?:";
    } else if (char === "}" && braces > 0) {
      braces -= 1;
      source += ")";
    } else if (char === "," && braces > 0) source += "|";
    else source += char.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
    index += 1;
  }
  return new RegExp(`^${source}$`);
}
