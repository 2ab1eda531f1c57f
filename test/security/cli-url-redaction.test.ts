// Attack surface: the CLI prints URLs in errors and notices; a password in them (a store URL, a model endpoint with
// `user:password@`) must never be printed, whatever characters it holds. Every URL goes through one redaction helper.
import { describe, expect, it } from "vitest";
import { captureIO } from "../../packages/cli/src/__fixtures__/capture-io.js";
import { describeChatError } from "../../packages/cli/src/commands/chat/describe-chat-error.js";
import { runCli } from "../../packages/cli/src/run-cli.js";
import { writeTree } from "../support/skill-tree.js";

const PASSWORDS = ["s3cr/et", "s3cr#et", "s3cr?et", "s3cr@et", "s3cr%2Fet"];

describe("attack: passwords in URLs the CLI prints", () => {
  for (const command of ["list", "publish"] as const) {
    it(`${command} --store never prints the store password`, async () => {
      const dir = writeTree({ "skills/.keep": "" });
      for (const password of PASSWORDS) {
        const io = captureIO(dir);
        const url = `postgres://bob:${password}@127.0.0.1:1/app`;
        const args = command === "list" ? ["list", "--store", url] : ["publish", "skills", "--store", url];
        expect(await runCli(args, io), password).not.toBe(0);
        expect(io.err() + io.out(), password).not.toContain("s3cr");
      }
    }, 60_000);
  }

  it("a model endpoint's user:password is redacted in chat's error lines", () => {
    const error = Object.assign(new Error("Connection error."), { cause: { code: "ECONNREFUSED" } });
    const line = describeChatError(error, { baseURL: "http://me:s3cret@127.0.0.1:1/v1" });
    expect(line).toContain("127.0.0.1:1");
    expect(line).not.toContain("s3cret");
  });
});
