import { describe, expect, it } from "vitest";
import { isSetupRace, retrySetupRace } from "./serialised-setup.js";

// The shape pg gives a unique violation: code, constraint, message.
const duplicate = (constraint: string) =>
  Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), {
    code: "23505",
    constraint,
  });

describe("retrySetupRace", () => {
  it("runs a set-up again after a known duplicate-key race and returns its result", async () => {
    for (const constraint of ["checkpoint_migrations_pkey", "pg_type_typname_nsp_index"]) {
      let calls = 0;
      const result = await retrySetupRace(async () => {
        calls += 1;
        if (calls < 3) throw duplicate(constraint);
        return "set up";
      });
      expect([result, calls]).toEqual(["set up", 3]);
    }
  });

  it("passes any other error through at once, and gives up on a race that never ends", async () => {
    const userData = duplicate("users_pkey");
    expect(isSetupRace(userData)).toBe(false);
    expect(isSetupRace(Object.assign(new Error("x"), { code: "42P01" }))).toBe(false);
    let calls = 0;
    await expect(
      retrySetupRace(async () => {
        calls += 1;
        throw userData;
      }),
    ).rejects.toBe(userData);
    expect(calls).toBe(1);
    calls = 0;
    const race = duplicate("checkpoint_migrations_pkey");
    await expect(
      retrySetupRace(async () => {
        calls += 1;
        throw race;
      }),
    ).rejects.toBe(race);
    expect(calls).toBe(4);
  });
});
