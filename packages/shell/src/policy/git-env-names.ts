// Environment variables through which git loads configuration, finds its programs or its repository, or starts a
// program: a line that sets one hands git something the checker does not read, so the piece is opaque even where the
// application lets tool calls set the name.

const GIT_NAMES: ReadonlySet<string> = new Set([
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_NOSYSTEM",
  "GIT_EXEC_PATH",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_SSH_VARIANT",
  "GIT_PROXY_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_TEMPLATE_DIR",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
  "GIT_ALLOW_PROTOCOL",
  "GIT_PROTOCOL_FROM_USER",
  "GIT_ATTR_NOSYSTEM",
  "GIT_TERMINAL_PROMPT",
]);

/** True for a variable that configures git or names a program git starts (GIT_CONFIG_KEY_<n> and _VALUE_<n> too). */
export function isGitConfigVariable(name: string): boolean {
  return GIT_NAMES.has(name) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name);
}

/** Why a line setting `name` is opaque. */
export function gitVariableMessage(name: string): string {
  return `'${name}' configures git or names a program git starts; the checker cannot judge what it makes git run`;
}
