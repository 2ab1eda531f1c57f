import { describe, expect, it } from "vitest";
import { guestCommandLine, readGuestRequest } from "./cgroup-v2-guest-protocol.js";

describe("the cgroup v2 guest's request on the kernel command line", () => {
  it("comes back as it was sent, among the kernel's own parameters", () => {
    const request = { mode: "cost" as const, params: { pairs: 20, pauseMs: 200, hostOffMs: 14.25 } };
    const cmdline = `console=ttyS0 cgroup_no_v1=all panic=-1 quiet ${guestCommandLine(request)}\n`;
    expect(readGuestRequest(cmdline)).toEqual(request);
  });

  it("is the limit scenarios when the command line names no mode", () => {
    expect(readGuestRequest("console=ttyS0 quiet")).toEqual({ mode: "limits", params: {} });
  });

  it("refuses an unknown mode, and a parameter the kernel could split or that is not a number", () => {
    expect(() => readGuestRequest("skillgraph.mode=bogus")).toThrow(/unknown guest mode 'bogus'/);
    expect(() => guestCommandLine({ mode: "cost", params: { "pause ms": 1 } })).toThrow(/bad guest parameter/);
    expect(() => guestCommandLine({ mode: "cost", params: { pairs: Number.NaN } })).toThrow(/bad guest parameter/);
  });
});
