import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOnFreePort } from "../support/free-port.js";

/** A PostgreSQL server started for the tests on a temporary data directory and a loopback port. */
export interface TestPostgresServer {
  url: string;
  stop(): void;
  /** Restarts the server as `pg_ctl restart -m fast` does (every connection gets 57P01); returns when it accepts again. */
  restart(): void;
  /** Stops the server as `pg_ctl stop -m fast` does (every connection gets 57P01), keeping its data for `resume`. */
  halt(): void;
  /** Starts a halted server without blocking this process (pg_ctl in the background); resolves once it accepts connections. */
  resume(): Promise<void>;
}

function findPgBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb"))) return bin;
  }
  return undefined;
}

/** Starts a throwaway PostgreSQL server, or explains why it cannot. */
export async function startTestPostgres(): Promise<TestPostgresServer> {
  const bin = findPgBin();
  if (!bin)
    throw new Error(
      "PostgreSQL server binaries not found under /usr/lib/postgresql (Debian package 'postgresql'); run scripts/setup-system-deps.sh",
    );
  const dataDir = mkdtempSync(join(tmpdir(), "skillgraph-pg-"));
  chmodSync(dataDir, 0o777);
  const asRoot = process.getuid?.() === 0;
  // initdb refuses to run as root: run the server tools as the `postgres` user (runuser lives in sbin, often not on PATH).
  const runuser =
    ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find((path) => existsSync(path)) ?? "runuser";
  const run = (command: string, args: string[]) => {
    const result = asRoot
      ? spawnSync(runuser, ["-u", "postgres", "--", join(bin, command), ...args], { encoding: "utf8" })
      : spawnSync(join(bin, command), args, { encoding: "utf8" });
    if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
    if (result.status !== 0)
      throw new Error(`${command} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
  };
  if (asRoot)
    chownSync(
      dataDir,
      Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim()),
      Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim()),
    );
  const pgData = join(dataDir, "data");
  run("initdb", ["-D", pgData, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  const log = join(dataDir, "log");
  const startArgs = (port: number) => [
    "-D",
    pgData,
    "-l",
    log,
    "-w",
    "-o",
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dataDir} -c max_connections=300 -c fsync=off`,
    "start",
  ];
  // a port taken between the probe and the server's bind is tried again (the server's log says why it failed)
  const port = await startOnFreePort(
    async (candidate) => {
      const logged = existsSync(log) ? statSync(log).size : 0;
      try {
        run("pg_ctl", startArgs(candidate));
        return candidate;
      } catch (error) {
        const written = existsSync(log) ? readFileSync(log).subarray(logged).toString() : "";
        throw new Error(`${(error as Error).message}\nserver log (port ${candidate}):\n${written}`, { cause: error });
      }
    },
    (error) => /Address already in use/i.test(String(error)),
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart() {
      run("pg_ctl", ["-D", pgData, "-l", join(dataDir, "log"), "-m", "fast", "-w", "restart"]);
    },
    halt() {
      run("pg_ctl", ["-D", pgData, "-m", "fast", "-w", "stop"]);
    },
    resume() {
      const [command, args] = asRoot
        ? [runuser, ["-u", "postgres", "--", join(bin, "pg_ctl"), ...startArgs(port)]]
        : [join(bin, "pg_ctl"), startArgs(port)];
      return new Promise((resolve, reject) => {
        const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`pg_ctl start failed (exit ${code}): ${stderr}`)),
        );
      });
    },
    stop() {
      try {
        run("pg_ctl", ["-D", pgData, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
