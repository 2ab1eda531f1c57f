import type { Checkpoint, CheckpointMetadata, PendingWrite } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type Database from "better-sqlite3";
import { explainSqliteError } from "./sqlite-write-errors.js";

type Config = Parameters<SqliteSaver["getTuple"]>[0];

/**
 * The official `SqliteSaver`, with its write errors explained: SQLITE_BUSY (locked past the busy timeout) and
 * SQLITE_FULL (disk full) become a CheckpointerError (`database-busy`, `disk-full`); SQLite rolled the write back.
 */
export class ResilientSqliteSaver extends SqliteSaver {
  private readonly url: string;

  constructor(db: Database.Database, url: string) {
    super(db);
    this.url = url;
  }

  override async put(config: Config, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<Config> {
    try {
      return await super.put(config, checkpoint, metadata);
    } catch (error) {
      throw explainSqliteError(error, this.url, `a checkpoint write (thread ${config.configurable?.thread_id})`);
    }
  }

  override async putWrites(config: Config, writes: PendingWrite[], taskId: string): Promise<void> {
    try {
      return await super.putWrites(config, writes, taskId);
    } catch (error) {
      throw explainSqliteError(error, this.url, `a pending-writes write (thread ${config.configurable?.thread_id})`);
    }
  }

  override async deleteThread(threadId: string): Promise<void> {
    try {
      return await super.deleteThread(threadId);
    } catch (error) {
      throw explainSqliteError(error, this.url, `deleting thread ${threadId}`);
    }
  }
}
