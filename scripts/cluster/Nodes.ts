/**
 * Parley nodes as child processes on this machine, on loopback, against one
 * PostgreSQL database: the code that the local cluster launcher
 * (`npm run cluster`) and the tests' `LocalCluster` share.
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { PAUSED_EXIT_CODE } from "../../src/actors/PauseGuard.js"

const root = fileURLToPath(new URL("../../", import.meta.url))

/** The address every node binds, for HTTP and for its cluster runner. */
export const HOST = "127.0.0.1"

/** How long a node may take to answer `/health/ready` 200 after it was started. */
export const READY_TIMEOUT_MS = 120_000

/** How long nodes may take to stop after SIGTERM before they are killed. */
export const STOP_GRACE_MS = 20_000

/** How much of a process's output is kept in memory, at least (the latest part). */
const MAX_OUTPUT_CHARS = 1_000_000

/** Where one node listens; `index` counts from 1. */
export interface NodeAddress {
  readonly index: number
  /** The loopback address it binds, for HTTP and for its runner (default `HOST`; all of 127/8 is loopback on Linux). */
  readonly host?: string
  readonly httpPort: number
  readonly runnerPort: number
}

/** The node's HTTP base URL. */
export const httpUrl = (address: NodeAddress): string => `http://${address.host ?? HOST}:${address.httpPort}`

/** How a process ended. */
export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export const describeExit = ({ code, signal }: Exit): string =>
  signal !== null ? `killed by ${signal}` : `exited with code ${code}`

/**
 * Whether a supervisor starts a node that ended so again: one that stood
 * still too long exits with `PAUSED_EXIT_CODE` to be started afresh.
 */
export const restartsAfter = (exit: Exit): boolean => exit.code === PAUSED_EXIT_CODE

/** A `parley` child process and what it printed. */
export interface ParleyChild {
  readonly pid: number
  /** What it printed so far, stdout and stderr interleaved (the latest million characters or more). */
  readonly output: () => string
  readonly exited: Promise<Exit>
  readonly running: () => boolean
  readonly kill: (signal: NodeJS.Signals) => void
}

export interface SpawnOptions {
  /** The whole environment of the process. */
  readonly env: NodeJS.ProcessEnv
  /** Run the build (`dist/main.js`) rather than the sources through tsx. */
  readonly built: boolean
  /**
   * Run the esbuild bundle `npm start` runs (`.build/main.js`, which the
   * caller has made with `ensureBundle`) rather than the sources through tsx:
   * the same program, started in a fifth of the CPU time (the tests do).
   */
  readonly bundled?: boolean
  /** More Node flags after `NODE_FLAGS` (a later flag wins): for a benchmark comparing them. */
  readonly nodeFlags?: ReadonlyArray<string>
  /** Called with each complete line the process prints. */
  readonly onLine?: (line: string, stream: "stdout" | "stderr") => void
  /** A file to which all the process prints is appended as well. */
  readonly logFile?: string
}

/**
 * Where nodes' output goes as well, for a look after a benchmark or a failed
 * run: `PARLEY_NODE_LOG_DIR`, one `node-<index>.log` per node (a restarted
 * node appends to its file).
 */
const nodeLogDir = process.env["PARLEY_NODE_LOG_DIR"]

const builtMain = Path.join(root, "dist", "main.js")

/** Why `--built` cannot run, if it cannot. */
export const missingBuild = (): string | undefined =>
  Fs.existsSync(builtMain) ? undefined : `${builtMain} does not exist: run npm run build first`

/**
 * The V8 flags every Parley node runs with: `npm start` (package.json), the
 * image (Dockerfile) and the nodes started here (`npm run cluster`, the
 * tests' and benchmarks' nodes); test/unit/deploy/NodeFlags.test.ts keeps the
 * three together. Semi-spaces of 32 MB instead of Node 20's 16 MB: a node
 * under load makes most of its garbage young, and with the larger young
 * generation it collected half as often. Three pairs of `npm run
 * bench:overload` runs on a 2-CPU machine (with and without, the same hour):
 * GC pauses 775 against 1,308, 463 against 946, 673 against 1,286; refusals
 * p99 55.3 against 81.4 ms, 86 against 105 ms, 47.5 against 94.2 ms. It
 * costs up to 48 MB more of RSS at the peak of a node's young generation.
 * One V8 worker thread instead of Node's four: the event loop needs a CPU of
 * its own, and the collector's helpers took it (under overload on 2 CPUs the
 * main thread waited for a CPU 15-20% of the time, a third of the event
 * loop's stalls). `PAIRED_FLAGS="|--v8-pool-size=4" npm run
 * bench:overload:paired`: goodput 92.3% against 87.0% of the peak, refusals
 * p99 54 against 74 ms; the collector's pauses are longer.
 */
export const NODE_FLAGS: ReadonlyArray<string> = ["--max-semi-space-size=32", "--v8-pool-size=1"]

/** Run `parley <args>` with the repository as working directory. */
export const spawnParley = (args: ReadonlyArray<string>, options: SpawnOptions): ParleyChild => {
  const entry = options.built
    ? [builtMain]
    : options.bundled
    ? [Path.join(root, ".build", "main.js")]
    : ["--import", "tsx", Path.join(root, "src", "main.ts")]
  const child = spawn(process.execPath, [...NODE_FLAGS, ...(options.nodeFlags ?? []), ...entry, ...args], {
    cwd: root,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const logFile = options.logFile === undefined ? undefined : Fs.createWriteStream(options.logFile, { flags: "a" })
  const collect = (stream: "stdout" | "stderr") => {
    let partial = ""
    child[stream].setEncoding("utf8")
    child[stream].on("data", (chunk: string) => {
      logFile?.write(chunk)
      output += chunk
      if (output.length > 2 * MAX_OUTPUT_CHARS) output = output.slice(-MAX_OUTPUT_CHARS)
      const lines = (partial + chunk).split("\n")
      partial = lines.pop()!
      for (const line of lines) options.onLine?.(line, stream)
    })
    child[stream].on("end", () => {
      if (partial !== "") options.onLine?.(partial, stream)
    })
  }
  collect("stdout")
  collect("stderr")
  // "close" rather than "exit": by then all of the output has been read.
  const exited = new Promise<Exit>((resolve) =>
    child.on("close", (code, signal) => {
      logFile?.end()
      resolve({ code, signal })
    })
  )
  return {
    pid: child.pid!,
    output: () => output,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    kill: (signal) => {
      child.kill(signal)
    }
  }
}

/** The environment of one node: `env`, with the cluster's database and the node's addresses. */
export const nodeEnv = (address: NodeAddress, env: NodeJS.ProcessEnv, databaseUrl: string): NodeJS.ProcessEnv => ({
  ...env,
  DATABASE_URL: databaseUrl,
  PORT: String(address.httpPort),
  PARLEY_HOST: address.host ?? HOST,
  PARLEY_RUNNER_HOST: address.host ?? HOST,
  PARLEY_RUNNER_PORT: String(address.runnerPort)
})

/** Start `parley serve` as the node at `address`. */
export const spawnNode = (
  address: NodeAddress,
  options: SpawnOptions & { readonly databaseUrl: string }
): ParleyChild =>
  spawnParley(["serve"], {
    ...options,
    env: nodeEnv(address, options.env, options.databaseUrl),
    ...(nodeLogDir === undefined ? {} : { logFile: Path.join(nodeLogDir, `node-${address.index}.log`) })
  })

const lastLines = (text: string, count = 30) => text.trimEnd().split("\n").slice(-count).join("\n")

/**
 * Start `parley migrate`, so that the nodes need not each migrate as they start;
 * `done` rejects with its output if it fails.
 */
export const migrate = (options: SpawnOptions & { readonly databaseUrl: string }) => {
  const child = spawnParley(["migrate"], { ...options, env: { ...options.env, DATABASE_URL: options.databaseUrl } })
  const done = child.exited.then((exit) => {
    if (exit.code !== 0) throw new Error(`parley migrate ${describeExit(exit)}:\n${lastLines(child.output())}`)
  })
  return { child, done }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Poll the node's `/health/ready` until it answers 200; throws if the process ends first or time runs out. */
export const waitReady = async (
  address: NodeAddress,
  child: ParleyChild,
  timeoutMs = READY_TIMEOUT_MS
): Promise<void> => {
  const url = `${httpUrl(address)}/health/ready`
  const deadline = Date.now() + timeoutMs
  let last = "no answer"
  while (child.running()) {
    if (Date.now() > deadline) {
      throw new Error(
        `node ${address.index} did not answer 200 at ${url} within ${timeoutMs} ms (last: ${last}):\n` +
          lastLines(child.output())
      )
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      if (response.status === 200) return
      last = `${response.status} ${await response.text()}`
    } catch (error) {
      last = String(error)
    }
    await sleep(250)
  }
  const exit = await child.exited
  throw new Error(`node ${address.index} ${describeExit(exit)} before it was ready:\n${lastLines(child.output())}`)
}

/**
 * Stop processes: SIGTERM to each still running, then SIGKILL to those still
 * running after `graceMs`. Resolves once all have ended, with the pids that
 * had to be killed.
 */
export const stopAll = async (
  children: ReadonlyArray<ParleyChild>,
  graceMs = STOP_GRACE_MS
): Promise<ReadonlyArray<number>> => {
  const running = children.filter((child) => child.running())
  for (const child of running) child.kill("SIGTERM")
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.all(running.map((child) => child.exited)),
    new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))
  ])
  clearTimeout(timer)
  const stubborn = running.filter((child) => child.running())
  for (const child of stubborn) child.kill("SIGKILL")
  await Promise.all(stubborn.map((child) => child.exited))
  return stubborn.map((child) => child.pid)
}

/** Whether a server could listen on `port` on a loopback address (default `HOST`) right now. */
export const portIsFree = (port: number, host = HOST): Promise<boolean> =>
  new Promise((resolve) => {
    const server = Net.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, host, () => server.close(() => resolve(true)))
  })
