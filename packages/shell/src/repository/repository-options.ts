import { z } from "zod";
import { integerSchema, parseOptions } from "../internal/core.js";
import { booleanOption } from "../internal/zod-options.js";

/** How the bubblewrap executor treats the git repositories a command can reach (`bubblewrap.repository`). */
export const repositoryOptionsSchema = z
  .object({
    /**
     * Let git read each repository's own configuration as it is (filters, diff and merge drivers, hooks, aliases...).
     * @default false: the sandbox sees a sanitised read-only copy of every repository's `config` and no hooks
     */
    trustConfig: booleanOption().default(false),
    /** Most repositories (git folders) the workspace and the skill folder may hold; more and the command does not run. @default 256 */
    maxRepositories: integerSchema({ min: 1, max: 100_000 }).default(256),
    /** Most folders the scan for repositories visits; more and the command does not run. @default 50000 */
    maxFolders: integerSchema({ min: 1, max: 10_000_000 }).default(50_000),
  })
  .strict();

/** The options after defaults. */
export type RepositoryOptions = z.output<typeof repositoryOptionsSchema>;
/** The options as given. */
export type RepositoryOptionsInput = z.input<typeof repositoryOptionsSchema>;

/** Parses `bubblewrap.repository` (InvalidOptionsError naming the option on a bad value). */
export function parseRepositoryOptions(input: RepositoryOptionsInput | undefined): RepositoryOptions {
  return parseOptions(repositoryOptionsSchema, input ?? {}, "bubblewrap.repository");
}
