import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_MODEL, NO_ENDPOINT_MESSAGE, PLACEHOLDER_API_KEY, resolveChatEndpoint } from "./chat-endpoint.js";

describe("resolveChatEndpoint", () => {
  it("is undefined when neither OPENAI_BASE_URL nor OPENAI_API_KEY is set (blank values count as unset)", () => {
    expect(resolveChatEndpoint({}, {})).toBeUndefined();
    expect(resolveChatEndpoint({}, { OPENAI_BASE_URL: " ", OPENAI_API_KEY: "" })).toBeUndefined();
  });

  it("uses OPENAI_BASE_URL with a placeholder key and the default model", () => {
    expect(resolveChatEndpoint({}, { OPENAI_BASE_URL: "http://localhost:11434/v1" })).toEqual({
      baseURL: "http://localhost:11434/v1",
      apiKey: PLACEHOLDER_API_KEY,
      model: DEFAULT_CHAT_MODEL,
    });
  });

  it("uses api.openai.com (no base URL) when only OPENAI_API_KEY is set, with SKILLGRAPH_MODEL", () => {
    expect(resolveChatEndpoint({}, { OPENAI_API_KEY: "sk-1", SKILLGRAPH_MODEL: "gpt-4.1" })).toEqual({
      baseURL: undefined,
      apiKey: "sk-1",
      model: "gpt-4.1",
    });
  });

  it("lets --base-url and --model win over the environment", () => {
    const endpoint = resolveChatEndpoint(
      { baseURL: "http://flag/v1", model: "flag-model" },
      { OPENAI_BASE_URL: "http://env/v1", SKILLGRAPH_MODEL: "env-model", OPENAI_API_KEY: "k" },
    );
    expect(endpoint).toEqual({ baseURL: "http://flag/v1", apiKey: "k", model: "flag-model" });
  });

  it("names both variables in the message shown when nothing is configured", () => {
    expect(NO_ENDPOINT_MESSAGE).toContain("OPENAI_BASE_URL");
    expect(NO_ENDPOINT_MESSAGE).toContain("OPENAI_API_KEY");
  });
});
