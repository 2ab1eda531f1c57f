// How the host tells the cgroup v2 guest what to run, and how the guest answers. The host puts the mode and its
// numeric parameters on the kernel's command line (`skillgraph.mode=cost skillgraph.pairs=30`: names with a dot are
// taken as module parameters, so the kernel passes them neither to init's arguments nor to its environment); the
// guest reads them from /proc/cmdline, runs that mode and prints one marked JSON line on the console.

/** Marks the one line of the guest's console that holds the report (JSON follows it). */
export const REPORT_MARK = "SKILLGRAPH-GUEST-REPORT ";

/** What the guest can run: the limit scenarios, or the per-command cost measurement. */
export const GUEST_MODES = ["limits", "cost"] as const;
/** One of {@link GUEST_MODES}. */
export type GuestMode = (typeof GUEST_MODES)[number];

/** A mode and its numeric parameters, as the guest receives them. */
export interface GuestRequest {
  mode: GuestMode;
  params: Record<string, number>;
}

const PREFIX = "skillgraph.";

/** The kernel command-line words that carry `request` (parameter names are letters only). */
export function guestCommandLine(request: GuestRequest): string {
  const words = [`${PREFIX}mode=${request.mode}`];
  for (const [name, value] of Object.entries(request.params)) {
    if (!/^[A-Za-z]+$/.test(name) || !Number.isFinite(value)) throw new Error(`bad guest parameter ${name}=${value}`);
    words.push(`${PREFIX}${name}=${value}`);
  }
  return words.join(" ");
}

/** The request a kernel command line carries; `limits` with no parameters when it names no mode. */
export function readGuestRequest(cmdline: string): GuestRequest {
  const request: GuestRequest = { mode: "limits", params: {} };
  for (const word of cmdline.trim().split(/\s+/)) {
    if (!word.startsWith(PREFIX)) continue;
    const [name, value = ""] = word.slice(PREFIX.length).split("=", 2) as [string, string?];
    if (name === "mode") {
      if (!(GUEST_MODES as readonly string[]).includes(value)) throw new Error(`unknown guest mode '${value}'`);
      request.mode = value as GuestMode;
    } else request.params[name] = Number(value);
  }
  return request;
}
