import { describe, expect, it } from "vitest";
import { redactUrl, UNPARSABLE_URL } from "./redact-url.js";

const secret = "Zq9";
const specials = ["@", "/", "#", "?"];

describe("redactUrl", () => {
  it("replaces the password of a URL with ***", () => {
    expect(redactUrl("postgres://user:p%40ss@db.example:5432/app")).toBe("postgres://user:***@db.example:5432/app");
  });

  it("leaves URLs without a password unchanged, and sqlite:/memory: targets as they are", () => {
    expect(redactUrl("postgres://user@localhost/app")).toBe("postgres://user@localhost/app");
    expect(redactUrl("sqlite:.skillgraph/sessions.db")).toBe("sqlite:.skillgraph/sessions.db");
    expect(redactUrl("memory:")).toBe("memory:");
  });

  it.each(specials)("never shows a password holding a percent-encoded '%s'", (char) => {
    const password = `${secret}${encodeURIComponent(char)}${secret}x`;
    const shown = redactUrl(`postgres://bob:${password}@db.example:5432/app?schema=s1`);
    expect(shown).toBe("postgres://bob:***@db.example:5432/app?schema=s1");
    expect(shown).not.toContain(secret);
  });

  it.each(specials)("never shows a password holding a raw '%s', however the parser splits it", (char) => {
    for (const password of [`${secret}${char}${secret}x`, `123${char}${secret}x`, `${char}${secret}`]) {
      const shown = redactUrl(`postgres://bob:${password}@db.example:5432/app`);
      expect(shown, password).not.toContain(secret);
      if (shown !== UNPARSABLE_URL) expect(shown, password).toContain(":***@");
    }
  });

  it("redacts secret query parameters and does not echo an unparsable URL", () => {
    expect(redactUrl(`postgres://bob@h/db?sslpassword=${secret}&password=${secret}`)).not.toContain(secret);
    expect(redactUrl(`postgres://bob:${secret}@[::1/db`)).toBe(UNPARSABLE_URL);
  });
});
