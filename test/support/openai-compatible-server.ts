// The local OpenAI-compatible test server: the entry other tests import and the CLI (`node --import tsx
// test/support/openai-compatible-server.ts --script FILE [--profile NAME] [--seed N] [--start-at N]`). The code lives
// in ./openai-compatible-server/, one concept per file.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "./openai-compatible-server/cli.js";

export { CONTEXT_LENGTH_ERRORS } from "./openai-compatible-server/errors.js";
export { deterministicEmbedding, TEST_EMBEDDING_DIMENSIONS } from "./openai-compatible-server/embeddings.js";
export {
  COMPLETION_ID_MODES,
  endpointProfileSchema,
  PROFILE_PRESETS,
  resolveProfile,
  TOOL_CALL_CHUNKINGS,
  TOOL_CALL_ID_MODES,
  type EndpointProfile,
  type EndpointProfileInput,
  type ProfilePresetName,
} from "./openai-compatible-server/profiles.js";
export { textOf } from "./openai-compatible-server/record.js";
export { scriptFromFile } from "./openai-compatible-server/script-file.js";
export { restartServer, startOpenAICompatibleServer } from "./openai-compatible-server/server.js";
export type {
  OpenAICompatibleServer,
  OpenAICompatibleServerOptions,
  RecordedChatRequest,
  ScriptedHttpError,
  ScriptedReply,
  ScriptedReplyObject,
  ScriptedStreamFailure,
  ScriptedToolCall,
  SentCompletion,
  WireMessage,
  WireTool,
} from "./openai-compatible-server/types.js";

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
