import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.js";

describe("redactUrl", () => {
  it("replaces the password of a URL with ***", () => {
    expect(redactUrl("postgres://user:p%40ss@db.example:5432/app")).toBe("postgres://user:***@db.example:5432/app");
  });

  it("leaves URLs without a password unchanged", () => {
    expect(redactUrl("postgres://user@localhost/app")).toBe("postgres://user@localhost/app");
    expect(redactUrl("sqlite:.skillgraph/sessions.db")).toBe("sqlite:.skillgraph/sessions.db");
  });
});
