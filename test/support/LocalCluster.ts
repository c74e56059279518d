/**
 * A Parley cluster on this machine, for tests and benchmarks: N nodes started
 * as the launcher (`npm run cluster`) starts them, on free ports so that a
 * developer's running cluster is never in the way, and each of them can be
 * killed and started again.
 */
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import {
  type Exit,
  httpUrl,
  migrate,
  type NodeAddress,
  type ParleyChild,
  portIsFree,
  restartsAfter,
  spawnNode,
  spawnParley,
  stopAll,
  waitReady
} from "../../scripts/cluster/Nodes.js"
import { freePort } from "./ParleyProcess.js"

/** One node of a `LocalCluster`. */
export interface ClusterNode {
  /** From 1. */
  readonly index: number
  /** The HTTP base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  readonly runnerPort: number
  /** The current process's; a restart changes it. */
  readonly pid: number
  /** All that the node's processes printed, the current one's last. */
  readonly output: () => string
  /** Send a signal to the current process (default SIGTERM). */
  readonly kill: (signal?: NodeJS.Signals) => void
  /** Resolves when the current process has ended. */
  readonly exited: Promise<Exit>
  /**
   * Stop the node if it runs, start it again on the same ports, and wait until it is ready. (A node that exits
   * after a pause is started again without it, as its supervisor would.)
   */
  readonly restart: () => Promise<void>
}

/** Nodes on loopback sharing one database. */
export interface LocalCluster {
  readonly nodes: ReadonlyArray<ClusterNode>
  /** SIGTERM every node, SIGKILL those still running 20 s later; resolves when all have ended. */
  readonly stop: () => Promise<void>
}

export interface ClusterOptions {
  readonly nodes: number
  readonly databaseUrl: string
  /**
   * Added to the nodes' environment, which otherwise holds only PATH, HOME and
   * a master key generated for this cluster (give PARLEY_MASTER_KEY to reuse
   * a database whose secrets were sealed with another).
   */
  readonly env?: Record<string, string>
  /** Run the build (`dist/main.js`) rather than the sources. */
  readonly built?: boolean
  /** Node flags after the nodes' own (`NODE_FLAGS`; a later flag wins), for a benchmark comparing them. */
  readonly nodeFlags?: ReadonlyArray<string>
  /**
   * Each node's whole environment as a deployment writes it, one per node
   * (`nodes` of them): the node gets exactly it, with PATH and HOME, and
   * neither `env` nor addresses of this harness. Its HTTP address is read from
   * its `PARLEY_HOST` and `PORT`, its runner port from `PARLEY_RUNNER_PORT`.
   */
  readonly environments?: ReadonlyArray<Readonly<Record<string, string>>>
}

/** `count` distinct free ports. */
const freePorts = async (count: number): Promise<Array<number>> => {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

/** Where a node with this whole environment listens. */
const addressIn = (index: number, environment: Readonly<Record<string, string>>): NodeAddress => {
  const { PARLEY_HOST: host, PARLEY_RUNNER_PORT: runnerPort, PORT: httpPort } = environment
  if (host === undefined || httpPort === undefined || runnerPort === undefined) {
    throw new Error(`node ${index}'s environment must give PARLEY_HOST, PORT and PARLEY_RUNNER_PORT`)
  }
  return { index, host, httpPort: Number(httpPort), runnerPort: Number(runnerPort) }
}

/** Migrate the database, start the nodes and wait until every one is ready. */
export const startCluster = async (options: ClusterOptions): Promise<LocalCluster> => {
  const inherited = { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "" }
  const env = { ...inherited, PARLEY_MASTER_KEY: Crypto.randomBytes(32).toString("base64"), ...options.env }
  // Unless told to run the build, nodes run the bundle the global setup made (as `npm start` does).
  const spawnOptions = {
    env,
    databaseUrl: options.databaseUrl,
    built: options.built ?? false,
    bundled: true,
    nodeFlags: options.nodeFlags ?? []
  }
  const given = options.environments
  if (given !== undefined && given.length !== options.nodes) {
    throw new Error(`${given.length} environments for ${options.nodes} nodes`)
  }
  const ports = given === undefined ? await freePorts(2 * options.nodes) : []
  const addresses: Array<NodeAddress> = Array.from({ length: options.nodes }, (_, i) =>
    given === undefined
      ? { index: i + 1, httpPort: ports[2 * i]!, runnerPort: ports[2 * i + 1]! }
      : addressIn(i + 1, given[i]!))
  const spawn = (address: NodeAddress) =>
    given === undefined
      ? spawnNode(address, spawnOptions)
      : spawnParley(["serve"], {
        env: { ...inherited, ...given[address.index - 1] },
        built: spawnOptions.built,
        bundled: true,
        nodeFlags: spawnOptions.nodeFlags
      })

  await migrate(spawnOptions).done
  let stopping = false
  const nodes = addresses.map((address) => clusterNode(address, () => spawn(address), () => stopping))
  const stop = async () => {
    stopping = true
    await stopAll(nodes.flatMap((node) => node.current() ?? []))
  }
  try {
    await Promise.all(nodes.map((node) => node.start()))
  } catch (error) {
    await stop()
    throw error
  }
  return { nodes: nodes.map((node) => node.node), stop }
}

/**
 * A node, started again as a supervisor would when it exits after a pause
 * (`restartsAfter`), until the cluster stops.
 */
const clusterNode = (address: NodeAddress, spawn: () => ParleyChild, stopping: () => boolean) => {
  let current: ParleyChild | undefined
  let earlier = ""
  const start = (): Promise<void> => {
    earlier += current?.output() ?? ""
    const child = spawn()
    current = child
    void child.exited.then((exit) => {
      if (restartsAfter(exit) && current === child && !stopping()) start().catch(() => {})
    })
    return waitReady(address, child)
  }
  const node: ClusterNode = {
    index: address.index,
    url: httpUrl(address),
    runnerPort: address.runnerPort,
    get pid() {
      return current!.pid
    },
    output: () => earlier + (current?.output() ?? ""),
    kill: (signal = "SIGTERM") => current!.kill(signal),
    get exited() {
      return current!.exited
    },
    restart: async () => {
      await stopAll([current!])
      await start()
    }
  }
  return { node, start, current: () => current }
}

/** A `LocalCluster` for the scope: stopped when the scope closes. */
export const localCluster = (options: ClusterOptions) =>
  Effect.acquireRelease(
    Effect.promise(() => startCluster(options)),
    (cluster) => Effect.promise(() => cluster.stop())
  )

/**
 * A base port for the launcher's layout of `nodes` nodes (HTTP ports from
 * the base, runner ports from the base + 100) where every port is free now.
 */
export const freeBasePort = async (nodes: number): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = await freePort()
    const ports = Array.from({ length: nodes }, (_, i) => [base + i, base + 100 + i]).flat()
    if (
      ports.every((port) => port <= 65535) && (await Promise.all(ports.map((port) => portIsFree(port)))).every(Boolean)
    ) {
      return base
    }
  }
  throw new Error(`found no ${nodes} free HTTP ports with ${nodes} free runner ports 100 above them`)
}
