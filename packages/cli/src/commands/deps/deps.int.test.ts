// `skillgraph deps`: a tama skill's declared dependencies, what is missing on this machine, and installing its Python
// packages into the skill's own environment after approval (offline, from a wheel built here; real venv and pip).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

const SKILL = `---
name: greeter
description: Greets with tinygreet.
metadata:
  tama:
    depends:
      bins: [sh, no-such-program-here]
      apt: [no-such-debian-package-here]
      uv: [tinygreet]
---
Run scripts/greet.py.
`;

/** A pure-Python wheel written by hand (no build tool, no network). */
function buildWheel(dir: string): void {
  const script = `
import zipfile, sys
files = {
  "tinygreet/__init__.py": "def greet():\\n    return 'hello'\\n",
  "tinygreet-1.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: tinygreet\\nVersion: 1.0\\n",
  "tinygreet-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
with zipfile.ZipFile(sys.argv[1] + "/tinygreet-1.0-py3-none-any.whl", "w") as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
    wheel.writestr("tinygreet-1.0.dist-info/RECORD", "".join(f"{name},,\\n" for name in files) + "tinygreet-1.0.dist-info/RECORD,,\\n")
`;
  execFileSync("python3", ["-c", script, dir]);
}

describe("skillgraph deps", () => {
  it("lists bins, apt and uv with what is missing, then installs the Python packages after a yes on stdin", async () => {
    const dir = writeTree({ "skills/greeter/SKILL.md": SKILL });
    const wheels = join(dir, "wheels");
    mkdirSync(wheels);
    buildWheel(wheels);
    const env = {
      PATH: process.env.PATH,
      PIP_NO_INDEX: "1",
      PIP_FIND_LINKS: wheels,
      XDG_CACHE_HOME: join(dir, "cache"),
    };
    const list = captureIO(dir, env);
    expect(await runCli(["deps", "greeter", "--skills", join(dir, "skills"), "--json"], list)).toBe(1);
    const report = JSON.parse(list.out());
    expect(report.bins).toEqual([
      { name: "sh", path: expect.stringMatching(/\/sh$/) },
      { name: "no-such-program-here", path: null },
    ]);
    expect(report.apt[0].name).toBe("no-such-debian-package-here");
    expect(report.apt[0].installed).not.toBe(true);
    expect(report.aptCommand).toBe("sudo apt-get install -y no-such-debian-package-here");
    expect(report.python).toMatchObject({ source: "depends.uv", packages: ["tinygreet"], installed: false });
    expect(report.python.environment.startsWith(join(dir, "cache", "skillgraph", "envs", "greeter-"))).toBe(true);

    const denied = captureIO(dir, env);
    const no = new PassThrough();
    no.end("n\n");
    expect(
      await runCli(["deps", "greeter", "--skills", join(dir, "skills"), "--install"], { ...denied, stdin: no }),
    ).toBe(1);
    expect(denied.err()).toContain("not installed (not approved)");
    expect(existsSync(join(report.python.environment, ".skillgraph-ready"))).toBe(false);

    const approved = captureIO(dir, env);
    const yes = new PassThrough();
    yes.end("y\n");
    expect(
      await runCli(["deps", "greeter", "--skills", join(dir, "skills"), "--install"], { ...approved, stdin: yes }),
    ).toBe(1);
    expect(approved.err()).toContain("Install tinygreet into");
    expect(approved.out()).toContain("Python packages (depends.uv) tinygreet: ok");
    expect(approved.out()).toContain(
      "Install the Debian packages yourself, as root: sudo apt-get install -y no-such-debian-package-here",
    );
    const python = join(report.python.environment, "bin", "python");
    expect(execFileSync(python, ["-c", "import tinygreet; print(tinygreet.greet())"], { encoding: "utf8" })).toBe(
      "hello\n",
    );
  }, 120_000);

  it("says when a skill declares nothing, and refuses a uv entry that is a URL", async () => {
    const dir = writeTree({
      "skills/plain/SKILL.md": "---\nname: plain\ndescription: Nothing needed.\n---\nx\n",
      "skills/url/SKILL.md":
        "---\nname: url\ndescription: Bad.\nmetadata:\n  tama:\n    depends:\n      uv: ['evil@https://example.com/x.whl']\n---\nx\n",
    });
    const plain = captureIO(dir, { PATH: process.env.PATH });
    expect(await runCli(["deps", "plain", "--skills", join(dir, "skills")], plain)).toBe(0);
    expect(plain.out()).toContain("declares no dependencies");
    const url = captureIO(dir, { PATH: process.env.PATH, XDG_CACHE_HOME: join(dir, "cache") });
    expect(await runCli(["deps", "url", "--skills", join(dir, "skills"), "--install", "--yes"], url)).toBe(1);
    expect(url.out()).toContain("is not a plain package requirement");
  });
});
