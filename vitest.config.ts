import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Three projects: `unit` (fast, no external services), `int` (*.int.test.ts: PostgreSQL, bubblewrap, child processes,
// HTTP) and `types` (*.test-d.ts: type-level tests of the public API, checked by the compiler, nothing run).
// The README's test command runs all three; `pnpm test:fast` runs only the unit project, `pnpm test:changed` the tests
// of the files changed since the last commit.
const shared = {
  resolve: { conditions: ["@skillgraph/source"] },
  ssr: { resolve: { conditions: ["@skillgraph/source"] } },
};

export default defineConfig({
  test: {
    // At least two files at a time. Vitest's own default is one worker fewer than the cores, which on a 2-core machine
    // is ONE: every file ran in turn, while most integration files spend their time waiting on child processes,
    // PostgreSQL and HTTP. The files are written to run side by side (free ports, a schema or database and a temp
    // folder of their own; the doc-block checks are split in four files for this).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**", "**/dist/**"],
          setupFiles: ["test/setup/fast-check-seed.ts"],
          testTimeout: 30_000,
        },
      },
      {
        ...shared,
        test: {
          name: "int",
          include: ["packages/*/src/**/*.int.test.ts", "test/**/*.int.test.ts", "examples/**/*.int.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
          globalSetup: ["test/setup/global-setup.ts"],
          setupFiles: ["test/setup/fast-check-seed.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        ...shared,
        test: {
          name: "types",
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ["test/types/**/*.test-d.ts"],
            tsconfig: "./tsconfig.types.json",
          },
        },
      },
    ],
  },
});
