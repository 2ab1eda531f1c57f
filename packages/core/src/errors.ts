// @skillgraph/core/errors: the error and source-diagnostic code tables and their docs links. The error classes are
// exported from the root entry.
export {
  SKILLGRAPH_ERROR_CODES,
  SOURCE_DIAGNOSTIC_CODES,
  docsUrlForCode,
  type SourceDiagnosticCode,
} from "./errors/error-codes.js";
