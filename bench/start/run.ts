/**
 * The start benchmark: how long `npm start` takes from the command to a node
 * that answers `/health/ready` 200, on the embedded database, as a newcomer
 * meets it. Three starts of `scripts/start.mjs` (what `npm start` runs):
 *
 * - **first**: no bundle yet (`.build/` removed) and a new data directory,
 *   as right after `npm ci` (the bundle is built, the embedded database
 *   created and migrated);
 * - **again**: nothing changed (no rebuild, the database already there);
 * - **after an edit**: one source file touched (a rebuild, not a new database).
 *
 * Baseline, in the same run: what `npm start` did before, a full `tsc` build
 * then `node dist/main.js serve` on a new data directory. Targets (issue 11):
 * first start ≤ 15 s, a start with nothing changed ≤ 3 s.
 *
 * Run with `npm run bench:start` (`-- --no-baseline` skips the tsc build).
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { NODE_FLAGS } from "../../scripts/cluster/Nodes.js"
import { freePort } from "../../test/support/ParleyProcess.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
const FIRST_TARGET_MS = 15_000
const AGAIN_TARGET_MS = 3_000
const READY_TIMEOUT_MS = 300_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Run `command`, wait until the node it starts answers ready, stop it; ms from the spawn to ready. */
const timeToReady = async (command: ReadonlyArray<string>, dataDir: string): Promise<number> => {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? "",
      PORT: String(port),
      PARLEY_DATA_DIR: dataDir
    },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let errors = ""
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors = (errors + chunk).slice(-4_000)))
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()))
  let ended = false
  void exited.then(() => (ended = true))
  try {
    while (performance.now() - started < READY_TIMEOUT_MS) {
      if (ended) throw new Error(`${command.join(" ")} ended before it was ready:\n${errors}`)
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false)
      if (ready) return performance.now() - started
      await sleep(25)
    }
    throw new Error(`${command.join(" ")} was not ready within ${READY_TIMEOUT_MS} ms:\n${errors}`)
  } finally {
    child.kill("SIGTERM")
    await exited
  }
}

/** Time a command that runs to its end. */
const timeToEnd = async (command: ReadonlyArray<string>): Promise<number> => {
  const started = performance.now()
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: root, stdio: "ignore" })
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command.join(" ")} exited ${code}`))))
  })
  return performance.now() - started
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const verdict = (ms: number, target: number) => `(target ≤ ${seconds(target)}: ${ms <= target ? "PASS" : "FAIL"})`

const main = async () => {
  const scratch = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-start-"))
  console.log(
    `start benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ` +
      `load average ${Os.loadavg()[0]!.toFixed(2)}; embedded database in ${scratch}`
  )
  const start = [process.execPath, ...NODE_FLAGS, "scripts/start.mjs", "serve"]
  try {
    Fs.rmSync(Path.join(root, ".build"), { recursive: true, force: true })
    const first = await timeToReady(start, Path.join(scratch, "a"))
    console.log(`first start (bundle built, new database):   ${seconds(first)} ${verdict(first, FIRST_TARGET_MS)}`)
    const again = await timeToReady(start, Path.join(scratch, "a"))
    console.log(`again, nothing changed:                     ${seconds(again)} ${verdict(again, AGAIN_TARGET_MS)}`)
    const touched = Path.join(root, "src", "Version.ts")
    const now = new Date()
    Fs.utimesSync(touched, now, now)
    const edited = await timeToReady(start, Path.join(scratch, "a"))
    console.log(`after an edit (rebuilt, same database):     ${seconds(edited)}`)

    if (!process.argv.includes("--no-baseline")) {
      const tsc = await timeToEnd(["npm", "run", "--silent", "build"])
      const node = await timeToReady(
        [process.execPath, ...NODE_FLAGS, "dist/main.js", "serve"],
        Path.join(scratch, "b")
      )
      console.log(
        `baseline, before issue 11 (tsc build, then node dist/main.js on a new database): ${seconds(tsc + node)} ` +
          `(npm run build ${seconds(tsc)}, then ready in ${seconds(node)})`
      )
    }
  } finally {
    Fs.rmSync(scratch, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
