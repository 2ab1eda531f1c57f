/** The parts of a skill's metadata that may name required programs. */
export interface RequirementSource {
  compatibility?: string;
  metadata?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  /** Dialect dependencies read by core (tama `depends`): `bins` are checked like `requires`. */
  dependencies?: { bins?: readonly string[] };
}

// Programs recognised by name in free-text `compatibility` ("Requires python3 and git").
const knownPrograms = [
  "python3",
  "python",
  "node",
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "deno",
  "bun",
  "git",
  "gh",
  "jq",
  "yq",
  "curl",
  "wget",
  "bash",
  "zsh",
  "ffmpeg",
  "ffprobe",
  "pandoc",
  "docker",
  "podman",
  "kubectl",
  "helm",
  "terraform",
  "uv",
  "uvx",
  "pip",
  "pip3",
  "java",
  "go",
  "cargo",
  "rustc",
  "ruby",
  "perl",
  "php",
  "make",
  "cmake",
  "gcc",
  "clang",
  "zip",
  "unzip",
  "tar",
  "sqlite3",
  "psql",
  "pdftotext",
  "pdftoppm",
  "qpdf",
  "libreoffice",
  "soffice",
  "convert",
  "magick",
  "rg",
  "fd",
  "az",
  "aws",
  "gcloud",
];

const aliases: Record<string, string> = {
  "python 3": "python3",
  "node.js": "node",
  nodejs: "node",
  imagemagick: "convert",
  ripgrep: "rg",
};

/**
 * Programs a skill says it needs: `requires: [..]` / `requires.bins`, tama's `depends.bins`, `metadata.requires` (same shapes, also one level
 * deeper such as `metadata.openclaw.requires.bins`), and well-known program names mentioned in `compatibility` after a
 * "require"/"need" word. MCP servers and API keys are not programs and are ignored.
 * @param skill the skill's metadata
 * @example requiredBinaries({ compatibility: "Requires python3 and git" }) // ["git", "python3"]
 */
export function requiredBinaries(skill: RequirementSource): string[] {
  const found = new Set<string>();
  collect(skill.extra?.requires, found);
  collect(skill.dependencies?.bins ? [...skill.dependencies.bins] : undefined, found);
  const metadata = skill.metadata ?? {};
  collect(metadata.requires, found);
  for (const value of Object.values(metadata)) {
    if (value && typeof value === "object" && !Array.isArray(value))
      collect((value as Record<string, unknown>).requires, found);
  }
  if (skill.compatibility) for (const name of fromCompatibility(skill.compatibility)) found.add(name);
  return [...found].sort();
}

function collect(value: unknown, into: Set<string>): void {
  if (typeof value === "string") {
    for (const name of value.split(/[\s,]+/)) addName(name, into);
  } else if (Array.isArray(value)) {
    for (const item of value) if (typeof item === "string") addName(item, into);
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of ["bins", "binaries", "commands", "programs"]) collect(record[key], into);
  }
}

function addName(raw: string, into: Set<string>): void {
  const name = raw.trim();
  if (/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name)) into.add(name);
}

function fromCompatibility(text: string): string[] {
  const lower = text.toLowerCase();
  const trigger = /\b(requires?|required|needs?|depends on)\b/.exec(lower);
  if (!trigger) return [];
  const tail = lower.slice(trigger.index).split(/optional:|optionally/)[0] ?? "";
  const found = new Set<string>();
  for (const [alias, name] of Object.entries(aliases)) if (tail.includes(alias)) found.add(name);
  for (const name of knownPrograms) {
    if (new RegExp(`(^|[\\s,(/])${name.replace(/[.+]/g, "\\$&")}(?=$|[\\s,.;)/]|\\d)`).test(tail)) found.add(name);
  }
  if (found.has("python3")) found.delete("python");
  if (/\bpython\s*3/.test(tail)) {
    found.delete("python");
    found.add("python3");
  }
  return [...found];
}
