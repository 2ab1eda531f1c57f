import { execFileSync } from "node:child_process";

/**
 * Writes `tinygreet-1.0-py3-none-any.whl` into `dir`: a pure-Python wheel built by hand (a zip with the package and
 * its dist-info), so pip installs it with `--no-index --find-links dir`, no build tool and no network.
 */
export function buildTinyWheel(dir: string): void {
  const script = `
import zipfile, sys
path = sys.argv[1] + "/tinygreet-1.0-py3-none-any.whl"
files = {
  "tinygreet/__init__.py": "def greet():\\n    return 'hello from tinygreet'\\n",
  "tinygreet-1.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: tinygreet\\nVersion: 1.0\\n",
  "tinygreet-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: skillgraph-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
with zipfile.ZipFile(path, "w") as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
    wheel.writestr("tinygreet-1.0.dist-info/RECORD", "".join(f"{name},,\\n" for name in files) + "tinygreet-1.0.dist-info/RECORD,,\\n")
`;
  execFileSync("python3", ["-c", script, dir]);
}
