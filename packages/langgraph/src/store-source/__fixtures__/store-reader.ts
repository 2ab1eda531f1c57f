// A registry in its own process reading skills from a PostgreSQL store. Prints the skill names (a JSON line) at start
// and after each "reload" line on stdin; exits on "exit".
// Usage: node --conditions=@skillgraph/source --import tsx store-reader.ts <postgres-url> <schema>
import { createInterface } from "node:readline";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { createSkillRegistry } from "@skillgraph/core";
import { skillsFromStore } from "../index.js";

const [url, schema] = process.argv.slice(2);
const store = PostgresStore.fromConnString(url!, { schema: schema! });
await store.setup();
const registry = await createSkillRegistry({ sources: [skillsFromStore(store)] });
const report = () => process.stdout.write(`${JSON.stringify(registry.list().map((skill) => [skill.name, skill.description]))}\n`);
report();
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "reload") {
    await registry.reload();
    report();
  } else if (line === "exit") break;
}
await store.stop();
