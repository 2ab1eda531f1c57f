import { SkillgraphError } from "../errors/skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.AgentFileError");

/** A declarative agent file that cannot be read or says something invalid; the message names the file and line. */
export class AgentFileError extends SkillgraphError {
  private readonly [marker] = true;
  /** The agent file. */
  readonly file: string;
  /** 1-based line of the offending value, when known. */
  readonly line: number | undefined;

  constructor({ file, line, message }: { file: string; line?: number; message: string }) {
    super({ code: "agent-file-invalid", message: `${file}${line === undefined ? "" : `:${line}`}: ${message}` });
    this.name = "AgentFileError";
    this.file = file;
    this.line = line;
  }

  /** True when `error` is an AgentFileError from any copy of this package. */
  static override isInstance(error: unknown): error is AgentFileError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
