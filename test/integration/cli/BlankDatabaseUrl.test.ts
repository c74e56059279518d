/**
 * `DATABASE_URL=` (set, but empty, as an orchestrator writes a variable it
 * has no value for) is no database URL: `parley serve` runs on the embedded
 * database, as with no DATABASE_URL, instead of retrying a URL with no user
 * for a minute; in production it is reported as missing at once.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { freePort, runParley, startParley, stopParley, waitForStatus } from "../../support/ParleyProcess.js"

describe("an empty DATABASE_URL", () => {
  it("serves on the embedded database", async () => {
    const dataDir = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-blank-url-")), "data")
    const port = await freePort()
    const env = { DATABASE_URL: "", PARLEY_DATA_DIR: dataDir, PORT: String(port) }

    const node = startParley(["serve"], env)
    await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 150_000, node)
    expect(await stopParley(node)).toBe(0)

    const { code, output } = await runParley(["info"], env)
    expect(code, output).toBe(0)
    const info = JSON.parse(output.slice(output.indexOf("{")))
    expect(info.database).toEqual({ kind: "embedded", location: dataDir })
    expect(info.installation?.starts).toBe(1)
  }, 240_000)

  it("is missing in production, named with the other blank ones at once", async () => {
    const started = Date.now()
    const { code, output } = await runParley(["serve"], {
      PARLEY_ENV: "production",
      DATABASE_URL: "",
      METRICS_TOKEN: " ",
      PARLEY_MASTER_KEY: "",
      PARLEY_JWT_PRIVATE_KEY: "",
      PARLEY_SMTP_URL: "",
      PARLEY_PUBLIC_URL: "https://parley.example.com",
      PORT: String(await freePort())
    })
    expect(code).toBe(1)
    expect(output).toContain(
      "PARLEY_ENV=production requires these settings, which are not set: DATABASE_URL, METRICS_TOKEN, " +
        "PARLEY_MASTER_KEY, PARLEY_JWT_PRIVATE_KEY, PARLEY_SMTP_URL"
    )
    // Not a minute of retries against a URL with no host: the check comes before any connection.
    expect(Date.now() - started).toBeLessThan(55_000)
  }, 90_000)
})
