// A stand-in agent for the "commands die with the agent" attack: starts a long command through the shell hook, says
// "started", and waits to be killed. Run as: node --import tsx agent-process.ts <executor>
import { attackHarness, type ExecutorName } from "./attack-harness.js";

const executor = (process.argv[2] ?? "local") as ExecutorName;
const marker = process.env.ATTACK_MARKER ?? "";
const attack = attackHarness(executor, { environment: { set: { ATTACK_MARKER: marker } } });
const started = await attack.call("run_skill_script", {
  skill: "attacker",
  command: "scripts/sleep.sh",
  interactive: true,
});
if (started.status !== "running") {
  console.error(JSON.stringify(started));
  process.exit(1);
}
console.log("started");
setInterval(() => undefined, 60_000);
