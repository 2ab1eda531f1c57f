// @skillgraph/core/errors: the error and source-diagnostic code tables and their docs links, and (for integrations)
// the option checks that throw InvalidOptionsError (one integer, or a whole zod schema). The error classes are exported from the root entry.
export {
  integerMessage,
  integerOption,
  integerSchema,
  MAX_TIMER_MS,
  type IntegerOptionBounds,
} from "./errors/integer-option.js";
export { parseOptions } from "./errors/parse-options.js";
export {
  SKILLGRAPH_ERROR_CODES,
  SOURCE_DIAGNOSTIC_CODES,
  docsUrlForCode,
  type SourceDiagnosticCode,
} from "./errors/error-codes.js";
