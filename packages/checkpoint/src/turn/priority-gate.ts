// The gate normal turns pass at their step boundaries (a checkpoint read or write, a model call, a tool call, a graph
// node starting): closed while a resumed turn of the same scheduler runs, so a thread this process took over runs
// nearly alone instead of sharing the CPU, the event loop and the database with every turn that was running.
import { AsyncLocalStorage } from "node:async_hooks";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import { isPriorityWork } from "../database/pool-priority.js";

/** Closed while at least one priority turn is in flight; normal turns wait at their next step boundary. */
export interface PriorityGate {
  /** Marks a priority turn in flight (the gate closes); the returned function marks it ended (once). */
  enter(): () => void;
  /** Resolves at once while no priority turn is in flight, else when the last one in flight ends. */
  pass(): Promise<void>;
  /** Priority turns in flight now. */
  readonly inFlight: number;
  /** Step boundaries waiting for the gate to open now (a turn may wait at more than one: a write and the next step). */
  readonly waiting: number;
}

/** A new, open gate. */
export function createPriorityGate(): PriorityGate {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  return {
    enter() {
      inFlight += 1;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        inFlight -= 1;
        if (inFlight > 0) return;
        const opened = waiters;
        waiters = [];
        for (const open of opened) open();
      };
    },
    pass() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length;
    },
  };
}

/** The gate the turn running in this async context yields to (set for a scheduler's normal turns). */
const yielding = new AsyncLocalStorage<PriorityGate>();

/** Runs `turn` as a normal turn that waits at its step boundaries while `gate` is closed. */
export function runYieldingTo<T>(gate: PriorityGate, turn: () => Promise<T>): Promise<T> {
  return yielding.run(gate, turn);
}

/**
 * The gate of the turn running here, when it is a normal turn that yields (undefined for priority work and outside a
 * scheduler that pauses normal turns).
 */
export function currentGate(): PriorityGate | undefined {
  return isPriorityWork() ? undefined : yielding.getStore();
}

/**
 * A LangChain callback handler whose starts (a graph node, a model call, a tool call) wait while `gate` is closed:
 * LangChain awaits a handler made with `_awaitHandler` before the step it reports runs.
 */
export class GateCallbackHandler extends BaseCallbackHandler {
  name = "priority-gate";

  constructor(private readonly gate: PriorityGate) {
    super({ _awaitHandler: true });
  }

  override handleChainStart() {
    return this.gate.pass();
  }

  override handleChatModelStart() {
    return this.gate.pass();
  }

  override handleLLMStart() {
    return this.gate.pass();
  }

  override handleToolStart() {
    return this.gate.pass();
  }
}

/** `callbacks` (an array, a manager or none) with `handler` added for the run and its children. */
export function withHandler(callbacks: Callbacks | undefined, handler: BaseCallbackHandler): Callbacks {
  if (callbacks === undefined) return [handler];
  if (Array.isArray(callbacks)) return [...callbacks, handler];
  const copy = callbacks.copy();
  copy.addHandler(handler, true);
  return copy;
}
