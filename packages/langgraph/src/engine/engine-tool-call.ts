/** A tool call as both shapes see it. */
export interface EngineToolCall {
  name: string;
  args: unknown;
  id?: string;
}
