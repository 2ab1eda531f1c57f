import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSkillRequirements } from "../../packages/shell/src/environments/skill-environments.js";

// A skill's requirements file is written by whoever wrote the skill (or by the model, for a skill it created): every
// line must name a package and versions only, so pip fetches nothing but packages by name from the configured index.

async function check(line: string) {
  const root = mkdtempSync(path.join(os.tmpdir(), "attack-req-"));
  const dir = path.join(root, "skill");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "requirements.txt"), `${line}\n`);
  return readSkillRequirements({ name: "victim", dir }, path.join(root, "envs"));
}

const hostile: Array<[string, string]> = [
  ["an archive in the working folder", "evil-1.0.tar"],
  ["a zip archive", "evil.zip"],
  ["a wheel file", "evil-1.0-py3-none-any.whl"],
  ["a gzip archive", "evil-1.0.tar.gz"],
  ["a version that makes the line an archive name", "evil==1.tar"],
  ["a local version that makes the line an archive name", "evil==1.0+x.zip"],
  ["an option smuggled after a marker", 'name ; python_version >= "3" --index-url http://127.0.0.1:9/simple'],
  ["an option after a bare marker separator", "name ; --index-url=http://127.0.0.1:9/simple"],
  ["a trusted-host option after a marker", 'name; os_name == "posix" --trusted-host evil'],
  ["an option after a version", "name==1.0 --index-url http://127.0.0.1:9/simple"],
  ["a hash option (pip option syntax)", "name==1.0 --hash=sha256:00"],
  ["a direct URL reference", "name @ https://127.0.0.1:9/evil.tar.gz"],
  ["a file URL", "name @ file:///tmp/evil"],
  ["a bare URL", "https://127.0.0.1:9/evil-1.0.tar.gz"],
  ["a relative path", "./evil"],
  ["a path with a folder", "dir/evil"],
  ["an editable install", "-e ."],
  ["a nested requirements file", "-r other.txt"],
  ["a constraints file", "-c other.txt"],
  ["an index option", "--index-url http://127.0.0.1:9/simple"],
  ["an environment variable", "${HOME}"],
  ["an environment variable in a version", "name==${VERSION}"],
  ["a line continuation", "name \\"],
  ["a marker calling something unknown", "name ; __import__('os')"],
  ["a marker on an unknown variable", 'name ; evil_var == "1"'],
  ["a quoted marker value hiding an option", "name ; os_name == ' --index-url=http://127.0.0.1:9/'"],
  ["a marker value with a space", "name ; platform_version == 'a b'"],
  ["an unterminated marker string", "name ; os_name == 'posix"],
  ["a name starting with a dot", ".evil"],
  ["a name with a path separator in extras", "name[../x]"],
  ["a version operator without a version", "name>="],
  ["a double version operator", "name>>=1"],
  ["a tab-separated option", "name\t--pre"],
  ["a NUL byte", "name\u0000"],
  ["an over-long line", `a${"b".repeat(400)}`],
];

const plain = [
  "requests",
  "requests==2.31.0",
  "numpy>=1.24,<2",
  "pandas >= 2.0 , < 3",
  "Foo_Bar.baz~=1.2",
  "pkg[extra1,extra2]==1.0.post1",
  "pkg!=1.5.*",
  "pkg==2!1.0rc1",
  "pkg===1.0",
  'pkg; python_version >= "3.8"',
  "pkg ; sys_platform == 'linux' and (python_version < '3.12' or os_name != 'nt')",
  "pkg # a comment",
];

describe("requirement lines are package names with version specifiers only", () => {
  it.each(hostile)("refuses %s", async (_name, line) => {
    const result = await check(line);
    expect(result).toMatchObject({ error: expect.stringContaining("requirements.txt") });
  });

  it.each(plain)("accepts %s", async (line) => {
    const result = await check(line);
    expect(result).toMatchObject({ file: "requirements.txt" });
  });
});
