import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

/** Decides, from a case's full title (`suite > ... > case`), why it is skipped; undefined runs it. */
export type SkipRule = (title: string) => string | undefined;

type Fn = (...args: unknown[]) => unknown;

/**
 * Installs vitest's `describe`/`it`/`expect`/hooks as globals (the official saver suite,
 * `@langchain/langgraph-checkpoint-validation`, uses them without importing), with an `it` that skips the cases `rule`
 * names, each with its reason in the title. Call before importing `specTest`.
 */
export function installConformanceGlobals(rule: SkipRule): void {
  let path: string[] = [];
  // A describe's factory may run after its caller returned: give it the path it was declared under.
  const scoped = (name: unknown, factory: unknown) => {
    const at = [...path, String(name)];
    if (typeof factory !== "function") return factory;
    return (...args: unknown[]) => {
      const saved = path;
      path = at;
      try {
        return (factory as Fn)(...args);
      } finally {
        path = saved;
      }
    };
  };
  const plainDescribe = (name: string, factory?: Fn, ...rest: unknown[]) =>
    (describe as unknown as Fn)(name, scoped(name, factory), ...rest);
  const wrappedDescribe = Object.assign(plainDescribe, {
    // One describe per row, named with the row's value (`%s`), so skip rules can tell the rows apart.
    each:
      (table: unknown[]) =>
      (name: string, factory: Fn, ...rest: unknown[]) => {
        for (const row of table) {
          const title = name.replace("%s", String(row));
          plainDescribe(title, () => factory(...(Array.isArray(row) ? row : [row])), ...rest);
        }
      },
    skip: describe.skip,
    only: describe.only,
  });
  const wrappedIt = Object.assign(
    (name: string, test?: Fn, timeout?: number) => {
      const reason = rule([...path, name].join(" > "));
      if (reason) it.skip(`${name} [skipped: ${reason}]`, test as never);
      else it(name, test as never, timeout);
    },
    {
      each: (table: Array<Record<string, unknown>>) => (name: string, test: Fn, timeout?: number) => {
        for (const row of table) {
          const title = name.replace(/\$([A-Za-z_]\w*)/g, (_match, key: string) => String(row[key]));
          wrappedIt(title, () => test(row), timeout);
        }
      },
      skip: it.skip,
      only: it.only,
    },
  );
  Object.assign(globalThis, {
    describe: wrappedDescribe,
    it: wrappedIt,
    test: wrappedIt,
    expect,
    beforeAll,
    afterAll,
    beforeEach,
    afterEach,
  });
}
