/**
 * The zero-install default, as a new user meets it: `parley serve` with no
 * DATABASE_URL keeps its data under PARLEY_DATA_DIR across restarts, and a
 * second process on the same directory is refused with a clear message.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { freePort, runParley, startParley, stopParley, waitForStatus } from "../../support/ParleyProcess.js"

const info = async (dataDir: string) => {
  const { code, output } = await runParley(["info"], { PARLEY_DATA_DIR: dataDir })
  expect(code).toBe(0)
  return JSON.parse(output.slice(output.indexOf("{"))) as {
    database: { kind: string; location: string }
    installation: { id: string; starts: number } | null
  }
}

describe("the embedded default", () => {
  it("serves with no database configured, keeps its data across restarts, and refuses a second process", async () => {
    const dataDir = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-embedded-")), "data")
    const port = await freePort()

    const first = startParley(["serve"], { PARLEY_DATA_DIR: dataDir, PORT: String(port) })
    await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 90_000, first)

    const second = await runParley(["serve"], { PARLEY_DATA_DIR: dataDir, PORT: String(await freePort()) })
    expect(second.code).toBe(1)
    expect(second.output).toContain(`The data directory ${dataDir} is in use by another Parley process`)
    expect(second.output).toContain(`pid ${first.child.pid}`)

    expect(await stopParley(first)).toBe(0)
    expect(Fs.existsSync(Path.join(dataDir, "parley.lock"))).toBe(false)

    const afterFirst = await info(dataDir)
    expect(afterFirst.database).toEqual({ kind: "embedded", location: dataDir })
    expect(afterFirst.installation?.starts).toBe(1)

    const again = startParley(["serve"], { PARLEY_DATA_DIR: dataDir, PORT: String(port) })
    await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 90_000, again)
    expect(await stopParley(again)).toBe(0)

    const afterSecond = await info(dataDir)
    expect(afterSecond.installation).toMatchObject({ id: afterFirst.installation!.id, starts: 2 })
  }, 180_000)
})
