// @skillgraph/core/errors: the error and source-diagnostic code tables, their docs links, and the options of the
// SkillgraphError base (for packages that subclass it). The error classes themselves are exported from the root entry.
export { type SkillgraphErrorOptions } from "./errors/skillgraph-error.js";
export {
  SKILLGRAPH_ERROR_CODES,
  SOURCE_DIAGNOSTIC_CODES,
  docsUrlForCode,
  type SourceDiagnosticCode,
} from "./errors/error-codes.js";
