import { describe, expect, it } from "vitest";
import { shortenDescription } from "./shorten-description.js";

describe("shortenDescription", () => {
  it("returns a description that fits unchanged and not shortened", () => {
    expect(shortenDescription("Short text.", 40)).toEqual({ text: "Short text.", shortened: false });
  });

  it("cuts on the last word boundary and ends with an ellipsis, within the cap", () => {
    const result = shortenDescription("Extract tables from PDF files and convert them to CSV", 30);
    expect(result).toEqual({ text: "Extract tables from PDF files…", shortened: true });
    expect(result.text.length).toBeLessThanOrEqual(30);
  });

  it("collapses newlines and runs of spaces before cutting", () => {
    expect(shortenDescription("Line one\n   line two\nline three and more words", 20).text).toBe("Line one line two…");
  });

  it("cuts mid-word when the only space is in the first half, and never splits a surrogate pair", () => {
    expect(shortenDescription("a bcdefghijklmnopqrstuvwxyz", 10).text).toBe("a bcdefgh…");
    const emoji = "😀".repeat(20);
    const cut = shortenDescription(emoji, 10).text;
    expect(cut.length).toBeLessThanOrEqual(10);
    expect(cut).toBe(`${"😀".repeat(4)}…`);
  });
});
