import { describe, expect, it } from "vitest";
import { parseDispatch } from "./index.js";

describe("call_skill_tool", () => {
  it("reads the inner tool and its arguments", () => {
    expect(parseDispatch({ tool: "make_pdf", arguments: { title: "x" } })).toEqual({
      tool: "make_pdf",
      args: { title: "x" },
    });
  });

  it("accepts arguments given as a JSON string", () => {
    expect(parseDispatch({ tool: "make_pdf", arguments: '{"title":"x"}' })).toEqual({
      tool: "make_pdf",
      args: { title: "x" },
    });
  });

  it("explains a missing tool name or malformed arguments", () => {
    expect(parseDispatch({ arguments: {} })).toHaveProperty("error");
    expect(parseDispatch({ tool: "make_pdf", arguments: "not json" })).toHaveProperty("error");
    expect(parseDispatch({ tool: "make_pdf", arguments: [1] })).toHaveProperty("error");
  });
});
