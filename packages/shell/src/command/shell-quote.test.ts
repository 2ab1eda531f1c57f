import { describe, expect, it } from "vitest";
import { parseShellWords } from "./parse-shell-words.js";
import { describeArgv, shellQuote } from "./shell-quote.js";

describe("shellQuote / describeArgv (the one quoting, for the pty wrapper and for messages)", () => {
  it("leaves plain words alone and single-quotes the rest", () => {
    expect(shellQuote("scripts/run.sh")).toBe("scripts/run.sh");
    expect(shellQuote("--out=a,b@c:d%e+f")).toBe("--out=a,b@c:d%e+f");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("$HOME;rm -rf /")).toBe("'$HOME;rm -rf /'");
  });

  it("round-trips hostile argv through the shell-words parser", () => {
    const argv = ["python3", "a b.py", "it's", '"quoted"', "$(id)", "`id`", "*.txt", "a\\b", "", "x|y>z", "--k='v'"];
    expect(parseShellWords(describeArgv(argv))).toEqual({ ok: true, argv });
  });
});
