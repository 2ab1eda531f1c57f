// Exactly once, checked in the database after a fleet run (test/support/fleet-scenario.ts): each turn a client saw
// answered must be in its thread once, its user message and its answer.
import { closeCheckpointer, createCheckpointer, inspectSession } from "../../packages/checkpoint/src/index.js";
import type { FleetReport } from "./fleet-scenario.js";

/** What the database holds of the turns clients saw answered: turns missing, and turns stored more than once. */
export interface ReplyCount {
  /** Answered turns whose user message or answer is not in the thread. */
  lost: string[];
  /** Answered turns whose user message or answer is in the thread more than once. */
  duplicated: string[];
}

/** Counts, for every answered turn of `report`, its user message and its answer in the stored thread. */
export async function countReplies(report: FleetReport): Promise<ReplyCount> {
  const saver = await createCheckpointer(report.checkpointUrl);
  const lost: string[] = [];
  const duplicated: string[] = [];
  try {
    for (const thread of report.threads) {
      const { messages } = await inspectSession(saver, thread);
      for (const record of report.answered.filter((entry) => entry.thread === thread)) {
        const asked = messages.filter((message) => message.type === "human" && message.content === `turn ${record.id}`);
        const answers = messages.filter(
          (message) => message.type === "ai" && new RegExp(`^answer ${record.id}( |$)`).test(String(message.content)),
        );
        if (asked.length === 0 || answers.length === 0) lost.push(record.id);
        else if (asked.length > 1 || answers.length > 1) duplicated.push(record.id);
      }
    }
  } finally {
    await closeCheckpointer(saver);
  }
  return { lost, duplicated };
}
