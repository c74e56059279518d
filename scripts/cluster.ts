/**
 * `npm run cluster -- --nodes 3 --base-port 8080`: a Parley cluster on this
 * machine. It migrates `DATABASE_URL`'s database once, starts the nodes as
 * child processes on loopback, waits until each is ready, prints where they
 * are, then streams their output until SIGINT or SIGTERM stops them all.
 */
import { parseArgs } from "node:util"
import {
  describeExit,
  HOST,
  httpUrl,
  migrate,
  missingBuild,
  type NodeAddress,
  type ParleyChild,
  portIsFree,
  restartsAfter,
  spawnNode,
  STOP_GRACE_MS,
  stopAll,
  waitReady
} from "./cluster/Nodes.js"

const usage = `usage: npm run cluster -- [--nodes N] [--base-port P] [--runner-base-port R] [--built] [--quiet]

  --nodes N             how many nodes, 1 to 16 (default 3)
  --base-port P         node i serves HTTP on port P+i-1 (default 8080)
  --runner-base-port R  node i's cluster runner listens on port R+i-1 (default P+100)
  --built               run the build (dist/main.js) instead of the sources
  --quiet               do not stream the nodes' output

DATABASE_URL must name a PostgreSQL database: all the nodes share it.`

const refuse = (message: string): never => {
  process.stderr.write(`cluster: ${message}\n`)
  process.exit(2)
}

const integer = (name: string, text: string, min: number, max: number): number => {
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  return value >= min && value <= max
    ? value
    : refuse(`--${name} must be an integer from ${min} to ${max}, not "${text}"`)
}

const options = (() => {
  try {
    return parseArgs({
      options: {
        nodes: { type: "string", default: "3" },
        "base-port": { type: "string", default: "8080" },
        "runner-base-port": { type: "string" },
        built: { type: "boolean", default: false },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", default: false }
      }
    }).values
  } catch (error) {
    return refuse(`${(error as Error).message}\n\n${usage}`)
  }
})()
if (options.help) {
  console.log(usage)
  process.exit(0)
}

const count = integer("nodes", options.nodes, 1, 16)
const basePort = integer("base-port", options["base-port"], 1, 65536 - count)
const runnerBasePort = options["runner-base-port"] === undefined
  ? basePort + 100
  : integer("runner-base-port", options["runner-base-port"], 1, 65536 - count)
if (runnerBasePort + count > 65536) {
  refuse(`the runner ports ${runnerBasePort}..${runnerBasePort + count - 1} go past 65535`)
}
if (Math.abs(runnerBasePort - basePort) < count) {
  refuse(`the HTTP ports (from ${basePort}) and the runner ports (from ${runnerBasePort}) overlap`)
}
const databaseUrl = process.env["DATABASE_URL"] ?? ""
if (databaseUrl === "") {
  refuse(
    "DATABASE_URL is not set. The nodes of a cluster share one PostgreSQL database " +
      "(the embedded database admits one process), e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/parley"
  )
}
const built = options.built
if (built) {
  const missing = missingBuild()
  if (missing !== undefined) refuse(missing)
}

const addresses: ReadonlyArray<NodeAddress> = Array.from({ length: count }, (_, i) => ({
  index: i + 1,
  httpPort: basePort + i,
  runnerPort: runnerBasePort + i
}))
const busy: Array<number> = []
for (const port of addresses.flatMap((address) => [address.httpPort, address.runnerPort])) {
  if (!(await portIsFree(port))) busy.push(port)
}
if (busy.length > 0) {
  refuse(`port ${busy.join(", ")} already in use: is another cluster running? Pick another --base-port`)
}

// Unless PARLEY_MASTER_KEY is set, every node uses the key that Parley keeps in
// PARLEY_DATA_DIR/master.key: the nodes share one working directory, so they
// share that key, and it outlives this run, as the secrets sealed with it do.
const env = process.env
const children: Array<ParleyChild> = []
let streaming = false
let stopping = false

const stop = async (signal: NodeJS.Signals) => {
  if (stopping) return
  stopping = true
  const running = children.filter((child) => child.running())
  console.log(
    `cluster: ${signal}: stopping ${running.length} process(es) (SIGTERM, SIGKILL after ${STOP_GRACE_MS / 1000} s)`
  )
  const killed = await stopAll(running)
  console.log(`cluster: stopped${killed.length > 0 ? `; killed pid ${killed.join(", ")}` : ""}`)
  process.exit(0)
}

const fail = async (error: unknown) => {
  if (stopping) return // a signal came first: `stop` ends it all
  stopping = true
  console.error(`cluster: ${(error as Error).message}`)
  await stopAll(children)
  process.exit(1)
}

const run = async () => {
  console.log("cluster: parley migrate")
  const migration = migrate({ env, built, databaseUrl })
  children.push(migration.child)
  try {
    await migration.done
  } catch (error) {
    return fail(error)
  }
  if (stopping) return

  console.log(`cluster: starting ${count} node(s)`)
  const nodes: Array<{ readonly address: NodeAddress; child: ParleyChild }> = []
  const printLine = (address: NodeAddress) => (line: string, stream: "stdout" | "stderr") => {
    if (streaming) process[stream].write(`[${address.index}] ${line}\n`)
  }
  const start = (address: NodeAddress) => {
    if (stopping) return Promise.reject(new Error("stopping"))
    const child = spawnNode(address, { env, built, databaseUrl, onLine: printLine(address) })
    children.push(child)
    nodes.push({ address, child })
    return waitReady(address, child)
  }
  try {
    await Promise.all(addresses.map(start))
  } catch (error) {
    return fail(error)
  }
  if (stopping) return

  const watch = (entry: { readonly address: NodeAddress; child: ParleyChild }) => {
    const { address, child } = entry
    void child.exited.then((exit) => {
      if (stopping) return
      console.error(`cluster: node ${address.index} (pid ${child.pid}) ${describeExit(exit)}`)
      // A supervisor's part (what Kubernetes and Docker's restart policy do in production).
      if (restartsAfter(exit)) {
        console.error(`cluster: node ${address.index} stopped after a pause; starting it again`)
        entry.child = spawnNode(address, { env, built, databaseUrl, onLine: printLine(address) })
        children.push(entry.child)
        watch(entry)
        waitReady(address, entry.child).then(
          () => console.log(`node ${address.index}  ${httpUrl(address)}  ready again, pid ${entry.child.pid}`),
          (error) => console.error(`cluster: ${(error as Error).message}`)
        )
        return
      }
      if (nodes.every((node) => !node.child.running())) {
        console.error("cluster: no node is left running")
        process.exit(1)
      }
    })
  }
  for (const entry of nodes) {
    const { address, child } = entry
    console.log(`node ${address.index}  ${httpUrl(address)}  runner ${HOST}:${address.runnerPort}  pid ${child.pid}`)
    watch(entry)
  }
  console.log("cluster: ready; Ctrl-C stops the nodes")
  streaming = !options.quiet
}

process.on("SIGINT", stop)
process.on("SIGTERM", stop)
await run()
