/**
 * Parley as a user runs it: the `parley` command in its own process, with an
 * environment of the test's choosing (nothing inherited but PATH and HOME).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { NODE_FLAGS } from "../../scripts/cluster/Nodes.js"

const root = fileURLToPath(new URL("../../", import.meta.url))

/** A `parley` process and everything it printed so far. */
export interface ParleyProcess {
  readonly child: ChildProcess
  readonly output: () => string
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>
}

/**
 * Run `parley <args>` from the sources, as the bundle `npm start` runs
 * (`.build/main.js`, made from the sources by the tests' global setup): the
 * same program as `tsx src/main.ts`, in a fifth of the CPU time per start.
 */
export const startParley = (args: ReadonlyArray<string>, env: Record<string, string>): ParleyProcess =>
  spawnNode([".build/main.js", ...args], env)

/** Run `parley <args>` as `npm start -- <args>` does: the esbuild bundle, built first when a source changed. */
export const startBundled = (args: ReadonlyArray<string>, env: Record<string, string>): ParleyProcess =>
  spawnNode(["scripts/start.mjs", ...args], env)

const spawnNode = (argv: ReadonlyArray<string>, env: Record<string, string>): ParleyProcess => {
  const child = spawn(process.execPath, [...NODE_FLAGS, ...argv], {
    cwd: root,
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, output: () => output, exited }
}

/** Run `parley <args>` to completion. */
export const runParley = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const process = startParley(args, env)
  const code = await process.exited
  return { code, output: process.output() }
}

/** The first port the kernel hands out to outgoing connections (Linux: 32768 unless configured). */
const ephemeralLow = (() => {
  try {
    const low = Number(Fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])
    return Number.isInteger(low) && low > 12_000 ? low : 32_768
  } catch {
    return 32_768
  }
})()

/** Whether a listener can bind `port` on loopback right now. */
const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = Net.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

// Each test worker takes ports from a block of its own, below the ephemeral range: a port
// the kernel picked for `listen(0)` and that was then closed could be taken by any outgoing
// connection (a pooled database client, an HTTP request) before the test's server binds it
// (a CI run failed so: EADDRINUSE on a runner port). Nothing hands out ports here but us.
const blocks = 8
const blockSize = Math.floor((ephemeralLow - 200 - 10_000) / blocks)
const worker = Number(process.env["VITEST_POOL_ID"] ?? process.pid) % blocks
const blockBase = 10_000 + worker * blockSize
let cursor = Math.floor(Math.random() * blockSize)

/** A TCP port nobody listens on right now, from this worker's own block (see above). */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < blockSize; attempt++) {
    const port = blockBase + (cursor++ % blockSize)
    if (await canListen(port)) return port
  }
  throw new Error(`no free port in ${blockBase}..${blockBase + blockSize - 1}`)
}

/** Poll `url` until it answers `status`, or fail after `timeoutMs`. */
export const waitForStatus = async (url: string, status: number, timeoutMs = 60_000, process?: ParleyProcess) => {
  const deadline = Date.now() + timeoutMs
  let last = "no answer"
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      if (response.status === status) return
      last = `${response.status} ${await response.text()}`
    } catch (error) {
      last = String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})\n${process?.output() ?? ""}`)
}

/** Stop a process with SIGTERM and wait for it to end. */
export const stopParley = async (process: ParleyProcess) => {
  process.child.kill("SIGTERM")
  return await process.exited
}

/** A node serving on the embedded default: its base URL and its process. */
export interface EmbeddedNode {
  readonly base: string
  readonly node: ParleyProcess
}

/**
 * Runs `body` against a node that `start` launches with `serve` on a fresh
 * data directory and a free port, once it is ready (within `readyWithinMs`);
 * afterwards stops the node, which must exit cleanly, and removes the data.
 */
export const withEmbeddedParley = async <A>(
  start: (args: ReadonlyArray<string>, env: Record<string, string>) => ParleyProcess,
  readyWithinMs: number,
  body: (embedded: EmbeddedNode) => Promise<A>
): Promise<A> => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-embedded-"))
  try {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const node = start(["serve"], { PARLEY_DATA_DIR: Path.join(dir, "data"), PORT: String(port) })
    let result: A
    try {
      await waitForStatus(`${base}/health/ready`, 200, readyWithinMs, node)
      result = await body({ base, node })
    } catch (error) {
      await stopParley(node)
      throw error
    }
    const exit = await stopParley(node)
    if (exit !== 0) throw new Error(`The node exited with ${exit}\n${node.output()}`)
    return result
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}
