import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

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
    // The pool keeps its worker processes from file to file (a fresh process
    // and module cache per file cost about 2.7 s of collecting each, most of
    // it loading the packages); each project says what a file shares.
    poolOptions: { forks: { isolate: false } },
    reporters: ["default"],
    projects: [
      // Pure code and in-process services: one module cache for all files.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false } },
      // The project's own modules evaluated afresh for every file (they hold
      // servers, pools and caches); the packages' modules are shared.
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          isolate: true,
          poolOptions: { forks: { isolate: true } }
        }
      }
    ]
  }
})
