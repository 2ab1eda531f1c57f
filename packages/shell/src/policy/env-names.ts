import type { CommandPolicy } from "./command-policy.js";
import { type Refusal, refusal } from "./refusal.js";

/** Refuses an environment variable name a command may not set (not a valid name, or not on the allow-list). */
export function checkEnvName(name: string, policy: Pick<CommandPolicy, "envAllow">): Refusal | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return refusal("env-not-allowed", `environment variable name '${name}' is not valid`);
  if (!policy.envAllow.has(name)) {
    const allowed = [...policy.envAllow].join(", ") || "none";
    return refusal(
      "env-not-allowed",
      `environment variable '${name}' may not be set by a tool call (allowed: ${allowed})`,
    );
  }
  return undefined;
}
