// @skillgraph/core/errors: the error and source-diagnostic code tables and their docs links, and (for integrations)
// the integer-option check that throws InvalidOptionsError. The error classes are exported from the root entry.
export { integerOption, type IntegerOptionBounds } from "./errors/integer-option.js";
export {
  SKILLGRAPH_ERROR_CODES,
  SOURCE_DIAGNOSTIC_CODES,
  docsUrlForCode,
  type SourceDiagnosticCode,
} from "./errors/error-codes.js";
