/** Sampling settings an agent file gives its model; `skillgraph chat` passes them to the chat model it creates. */
export interface AgentModelParameters {
  /** 0 to 2. */
  temperature?: number;
  /** Nucleus sampling, greater than 0 and at most 1. */
  topP?: number;
  /** Most tokens one answer may have (Ollama's `num_predict`). */
  maxTokens?: number;
}

/** The model parameter keys of every agent-file format, with their checks. */
export const MODEL_PARAMETER_RULES: Record<
  keyof AgentModelParameters,
  { check: (value: number) => boolean; rule: string }
> = {
  temperature: { check: (value) => value >= 0 && value <= 2, rule: "a number from 0 to 2" },
  topP: { check: (value) => value > 0 && value <= 1, rule: "a number greater than 0 and at most 1" },
  maxTokens: { check: (value) => Number.isInteger(value) && value >= 1, rule: "a whole number of at least 1" },
};

/**
 * Checks one model parameter's value: the number, or the message saying what is wrong (`temperature must be a number
 * from 0 to 2, not 'hot'`). `label` is the key as the file spells it.
 */
export function checkModelParameter(
  key: keyof AgentModelParameters,
  label: string,
  value: unknown,
): { value: number } | { error: string } {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  const { check, rule } = MODEL_PARAMETER_RULES[key];
  if (typeof number !== "number" || !Number.isFinite(number) || !check(number))
    return { error: `${label} must be ${rule}, not '${String(value)}'` };
  return { value: number };
}
