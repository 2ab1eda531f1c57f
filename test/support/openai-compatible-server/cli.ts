import { parseArgs } from "node:util";
import { PROFILE_PRESETS, type ProfilePresetName } from "./profiles.js";
import { scriptFromFile } from "./script-file.js";
import { startOpenAICompatibleServer } from "./server.js";
import type { ScriptedReply } from "./types.js";

const USAGE =
  "usage: openai-compatible-server.ts --script FILE [--port N] [--host H] [--loop] [--log] [--api-key KEY] [--profile NAME] [--seed N] [--start-at N]\n";

const integer = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new TypeError(`--${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
};

/** CLI mode: `node --import tsx test/support/openai-compatible-server.ts --script FILE [...]` prints the base URL and serves until killed. */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      script: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      loop: { type: "boolean" },
      log: { type: "boolean" },
      "api-key": { type: "string" },
      profile: { type: "string" },
      seed: { type: "string" },
      "start-at": { type: "string" },
    },
  });
  if (!values.script) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  if (values.profile !== undefined && !Object.hasOwn(PROFILE_PRESETS, values.profile)) {
    process.stderr.write(
      `unknown --profile "${values.profile}" (known: ${Object.keys(PROFILE_PRESETS).join(", ")})\n${USAGE}`,
    );
    process.exitCode = 2;
    return;
  }
  const { script, loop } = await scriptFromFile(values.script);
  const logged: ScriptedReply[] = script.map((reply) => async (request) => {
    if (values.log)
      process.stderr.write(
        `request ${request.index + 1}: ${request.messages.length} messages, tools [${request.toolNames.join(", ")}], stream ${request.stream}\n`,
      );
    return typeof reply === "function" ? reply(request) : reply;
  });
  const seed = integer("seed", values.seed);
  const startAt = integer("start-at", values["start-at"]);
  const server = await startOpenAICompatibleServer({
    script: logged,
    loop: values.loop === true || loop,
    port: integer("port", values.port) ?? 0,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values["api-key"] === undefined ? {} : { apiKey: values["api-key"] }),
    ...(values.profile === undefined ? {} : { profile: values.profile as ProfilePresetName }),
    ...(seed === undefined ? {} : { seed }),
    ...(startAt === undefined ? {} : { startAt }),
  });
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
