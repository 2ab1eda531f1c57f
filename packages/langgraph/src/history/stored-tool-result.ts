// A tool result as the runtime passes it on to state: without the fields it does not have.
//
// LangChain's tools build every ToolMessage with `artifact` (and whatever else the tool left unset) as an own field of
// undefined value. A checkpoint saver serialises a message from those fields and writes each undefined one as a marker
// object (`{"lc":2,"type":"undefined"}`), in every checkpoint written while the run holds the message (a long tool loop
// pays it at every step). Read back, the marker is dropped: a missing field and an undefined one are the same message.
import type { BaseMessage } from "@langchain/core/messages";

/**
 * Drops the undefined fields of a message's serialised form (`lc_kwargs`), in place, and returns the message: what it
 * reads as (`message.artifact` and the rest) is unchanged, and a saver stores no marker object for them.
 */
export function withoutUndefinedFields<T extends BaseMessage>(message: T): T {
  const fields = message.lc_kwargs as Record<string, unknown> | undefined;
  if (!fields) return message;
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return message;
}
