import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { holderIsGone, holderState, processIdentity } from "./holder-liveness.js";

const linux = process.platform === "linux";

describe.runIf(linux)("holderIsGone (pid plus process start time, Linux /proc)", () => {
  it("a live holder on this host is not gone; the same pid with another start time (a reused pid) is", () => {
    const me = { pid: process.pid, host: hostname(), identity: processIdentity() };
    expect(me.identity).toMatch(/^[0-9a-f-]+\/\d+$/);
    expect(holderIsGone(me, hostname())).toBe(false);
    const [boot, ticks] = me.identity.split("/");
    expect(holderIsGone({ ...me, identity: `${boot}/${Number(ticks) + 1}` }, hostname())).toBe(true);
    expect(holderIsGone({ ...me, identity: `another-boot/${ticks}` }, hostname())).toBe(true); // rebooted since
  });

  it("a holder whose process exited is gone; another host's or one without an identity is never judged", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const identity = processIdentity(child.pid!);
    expect(identity).not.toBe("");
    const holder = { pid: child.pid!, host: hostname(), identity };
    expect(holderIsGone(holder, hostname())).toBe(false);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(holderIsGone(holder, hostname())).toBe(true);
    expect(holderIsGone({ ...holder, host: "another-host" }, hostname())).toBe(false);
    expect(holderIsGone({ ...holder, identity: "" }, hostname())).toBe(false);
    // What the PostgreSQL leases ask: only an `unknown` holder is judged by its connection instead.
    expect(holderState(holder, hostname())).toBe("gone");
    expect(holderState({ ...holder, pid: process.pid, identity: processIdentity() }, hostname())).toBe("alive");
    expect(holderState({ ...holder, host: "another-host" }, hostname())).toBe("unknown");
  });
});
