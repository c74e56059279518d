import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

/**
 * Integration files that measure time, load the machine or run several nodes
 * (failover bounds, answers within a limit, overload, Chromium): they run one
 * at a time, after the rest, so a neighbour's load never decides them.
 */
const serialIntegration = [
  // Vector scans.
  "test/integration/aiAgents/KnowledgePgvector.test.ts",
  "test/integration/aiAgents/KnowledgeVectors.test.ts",
  "test/integration/chaos/**/*.test.ts",
  "test/integration/cli/**/*.test.ts",
  "test/integration/cluster/**/*.test.ts",
  "test/integration/embed/**/*.test.ts",
  "test/integration/fuzz/**/*.test.ts",
  "test/integration/http/InvalidText.test.ts",
  "test/integration/http/Overload.test.ts",
  "test/integration/http/RequestLog.test.ts",
  "test/integration/identity/TwoNodes.test.ts",
  "test/integration/providers/OpenAiProvider.test.ts",
  "test/integration/providers/SmtpMailer.test.ts",
  "test/integration/runtime/UserPatterns.test.ts",
  "test/integration/services/Admission.test.ts",
  "test/integration/services/RateLimiter.test.ts",
  "test/integration/workspace/Usage.test.ts"
]

/** The project's own modules evaluated afresh for every file (they hold servers, pools and caches). */
const integration = { isolate: true, poolOptions: { forks: { isolate: true } } } as const

export default defineConfig({
  resolve: {
    alias: { "parley/api": fileURLToPath(new URL("./src/http/Api.ts", import.meta.url)) }
  },
  test: {
    globalSetup: ["test/support/globalSetup.ts"],
    setupFiles: ["test/support/effectVitestMethods.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time even on two CPUs (vitest's default is one): a file
    // beside another takes 20-50% longer, yet the suite ends a quarter sooner
    // (1,598 s against 2,085 s on one machine; 1,097 s since the files share
    // one typed client and test servers hash passwords cheaply, see
    // docs/TESTING.md). `PARLEY_TEST_WORKERS` overrides.
    maxWorkers: Number(process.env["PARLEY_TEST_WORKERS"] ?? 2),
    minWorkers: 1,
    // The pool keeps its worker processes from file to file (a fresh process
    // and module cache per file cost about 2.7 s of collecting each, most of
    // it loading the packages); each project says what a file shares.
    poolOptions: { forks: { isolate: false } },
    reporters: ["default"],
    projects: [
      // Pure code and in-process services: one module cache for all files.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false } },
      // Files that may share the machine with one other file.
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: serialIntegration,
          ...integration
        }
      },
      // Then the timing-sensitive files, one at a time in one fork.
      {
        extends: true,
        test: {
          name: "integration-serial",
          include: serialIntegration,
          sequence: { groupOrder: 1 },
          ...integration,
          poolOptions: { forks: { isolate: true, singleFork: true } }
        }
      }
    ]
  }
})
