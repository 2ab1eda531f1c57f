import { defineConfig } from "vitest/config";

// Two projects: `unit` (fast, no external services) and `int` (*.int.test.ts: PostgreSQL, bubblewrap, child processes, HTTP).
// The README's test command runs both; `pnpm test:fast` runs only the unit project.
const shared = {
  resolve: { conditions: ["@skillgraph/source"] },
  ssr: { resolve: { conditions: ["@skillgraph/source"] } },
};

export default defineConfig({
  test: {
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**", "**/dist/**"],
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
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
