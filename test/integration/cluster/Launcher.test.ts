/**
 * The local cluster launcher as a developer uses it: `npm run cluster` prints
 * where its nodes are once they are ready, and Ctrl-C (SIGINT to the
 * terminal's process group) stops them all and exits 0; without DATABASE_URL
 * it refuses to start.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { freeBasePort } from "../../support/LocalCluster.js"
import { freshDatabase } from "../../support/TestDatabase.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** `npm run cluster -- <args>` in its own process group, as a terminal runs it; the group is killed at the end. */
const launch = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn("npm", ["run", "cluster", "--", ...args], {
        cwd: root,
        env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true
      })
      let output = ""
      child.stdout.on("data", (chunk) => (output += chunk))
      child.stderr.on("data", (chunk) => (output += chunk))
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on("close", (code, signal) => resolve({ code, signal }))
      )
      return {
        pid: child.pid!,
        output: () => output,
        exited,
        running: () => child.exitCode === null && child.signalCode === null
      }
    }),
    (launcher) =>
      Effect.sync(() => {
        try {
          process.kill(-launcher.pid, "SIGKILL")
        } catch {
          // the group has ended: nothing is left
        }
      })
  )

const nodeLine = /^node (\d+) {2}(http:\/\/127\.0\.0\.1:\d+) {2}runner 127\.0\.0\.1:(\d+) {2}pid (\d+)$/gm

const within = <A>(promise: Promise<A>, ms: number, what: string): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe("npm run cluster", () => {
  it.scopedLive(
    "starts the nodes, prints where they are, and on Ctrl-C stops them all and ends cleanly",
    () =>
      Effect.gen(function*() {
        const { url } = yield* freshDatabase
        const base = yield* Effect.promise(() => freeBasePort(2))
        // Without PARLEY_MASTER_KEY the nodes share the key generated in the data directory: a fresh one here.
        const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-cluster-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dataDir, { recursive: true, force: true })))
        const launcher = yield* launch(["--nodes", "2", "--base-port", String(base), "--quiet"], {
          DATABASE_URL: url,
          PARLEY_DATA_DIR: dataDir
        })

        const nodes = yield* Effect.promise(async () => {
          const deadline = Date.now() + 120_000
          while (launcher.running() && Date.now() < deadline) {
            const lines = [...launcher.output().matchAll(nodeLine)]
            if (lines.length === 2 && launcher.output().includes("cluster: ready")) return lines
            await new Promise((resolve) => setTimeout(resolve, 200))
          }
          throw new Error(`the cluster did not print its two nodes:\n${launcher.output()}`)
        })
        expect(nodes.map(([, index, url, runnerPort]) => [index, url, runnerPort])).toEqual([
          ["1", `http://127.0.0.1:${base}`, String(base + 100)],
          ["2", `http://127.0.0.1:${base + 1}`, String(base + 101)]
        ])
        for (const [, , url] of nodes) {
          const response = yield* Effect.promise(() => fetch(`${url}/health/ready`))
          expect(response.status).toBe(200)
        }
        expect(launcher.output()).not.toMatch(/^\[1\] /m)
        expect(Fs.readdirSync(dataDir)).toEqual(["master.key"])

        process.kill(-launcher.pid, "SIGINT")
        const exit = yield* Effect.promise(() => within(launcher.exited, 30_000, "stopping the cluster"))
        expect(launcher.output().trimEnd()).toMatch(/\ncluster: stopped$/)
        // The launcher exits 0 (the line above is its last before `process.exit(0)`). npm
        // passes on what its /bin/sh, which the Ctrl-C reached too, makes of it: bash exits
        // with the launcher's 0; dash (Debian's sh) waits for the launcher to end, then ends
        // itself by the SIGINT, and so does npm.
        expect(exit.code === 0 || exit.signal === "SIGINT", `${JSON.stringify(exit)}\n${launcher.output()}`).toBe(true)
        const pids = nodes.map(([, , , , pid]) => Number(pid))
        expect(pids.filter(alive)).toEqual([])
      }),
    180_000
  )

  it.scopedLive("refuses to start without DATABASE_URL, saying why", () =>
    Effect.gen(function*() {
      const launcher = yield* launch(["--nodes", "2"], {})
      const { code } = yield* Effect.promise(() => launcher.exited)
      expect(code).toBe(2)
      expect(launcher.output()).toContain("cluster: DATABASE_URL is not set")
    }), 60_000)
})
