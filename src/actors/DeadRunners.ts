/**
 * A dead node's shards move at once, not when its locks expire.
 *
 * Shard locks are rows that expire (`Cluster.ts`): right for a node that
 * froze, which must not be robbed while it might still run, but a node whose
 * process is gone waits out the same expiration (3 s by default) and then the
 * library's next attempt to acquire (up to 1 s more): failover p99 was 5-6 s.
 * A process that is gone says so: its runner port refuses connections (a
 * frozen process's kernel still accepts them, and a slow node answers). So
 * every node watches the others' heartbeats, and when one is late (older than
 * one and a half lock refresh intervals) it knocks on that runner's port;
 * refused twice, 100 ms apart, the runner is marked unhealthy (the ring is
 * recomputed without it at the next assignment refresh) and its lock rows are
 * deleted, so the new owners acquire at their first attempt.
 *
 * Wrong only if a live node refused connections on its runner port while its
 * heartbeat was late; then it loses its shards as it would after an
 * expiration, fencing makes its late writes change nothing, and the library's
 * own health check marks it healthy again when it answers a ping. A node
 * started again at the same address registers afresh (healthy) and its locks
 * are newer than the deletion.
 */
import type { RunnerAddress } from "@effect/cluster/RunnerAddress"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Schedule } from "effect"
import * as Net from "node:net"

/** The library's tables (`SqlRunnerStorage`, default prefix). */
const RUNNERS = "cluster_runners"
const LOCKS = "cluster_locks"

/** How often a node reads the others' heartbeats. */
const WATCH_INTERVAL = Duration.millis(250)
/** Between the two knocks on a late runner's port. */
const SECOND_KNOCK = Duration.millis(100)
/** A knock that neither connects nor is refused in this time counts as an answer (the node may be busy). */
const KNOCK_TIMEOUT_MS = 500

/** Whether `address` (`host:port`) refuses a TCP connection: nobody listens there. */
export const refusesConnections = (address: string): Effect.Effect<boolean> =>
  Effect.async<boolean>((resume) => {
    const colon = address.lastIndexOf(":")
    const socket = Net.connect({ host: address.slice(0, colon), port: Number(address.slice(colon + 1)) })
    let settled = false
    const settle = (refused: boolean) => {
      if (settled) return
      settled = true
      socket.destroy()
      resume(Effect.succeed(refused))
    }
    socket.once("connect", () => settle(false))
    socket.once("error", (error: NodeJS.ErrnoException) => settle(error.code === "ECONNREFUSED"))
    socket.setTimeout(KNOCK_TIMEOUT_MS, () => settle(false))
    return Effect.sync(() => socket.destroy())
  })

const encode = (address: RunnerAddress) => `${address.host}:${address.port}`

/**
 * Watches the other runners for this node (`self`), on the cluster's own
 * database connections, for the life of the layer.
 */
export const DeadRunnersLive = (self: RunnerAddress, lockRefreshInterval: Duration.Duration) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const lateAfterMs = Math.round(Duration.toMillis(lockRefreshInterval) * 1.5)

    const late = sql<{ readonly address: string }>`
      SELECT address FROM ${sql(RUNNERS)}
      WHERE healthy AND address <> ${encode(self)}
        AND last_heartbeat < NOW() - make_interval(secs => ${lateAfterMs / 1000})`

    const release = (address: string) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`UPDATE ${sql(RUNNERS)} SET healthy = false WHERE address = ${address}`
        const locks = yield* sql`DELETE FROM ${sql(LOCKS)} WHERE address = ${address} AND acquired_at < NOW()
          RETURNING shard_id`
        return locks.length
      }))

    const watch = Effect.gen(function*() {
      for (const { address } of yield* late) {
        if (!(yield* refusesConnections(address))) continue
        yield* Effect.sleep(SECOND_KNOCK)
        if (!(yield* refusesConnections(address))) continue
        const released = yield* release(address)
        yield* Effect.logInfo("A node's runner port refuses connections: its shards move now").pipe(
          Effect.annotateLogs({ runner: address, releasedLocks: released })
        )
      }
    }).pipe(
      // The tables appear when the library first starts on a database; until then, and on any error, try again.
      Effect.catchAllCause((cause) => Effect.logDebug("Could not watch the other runners", cause))
    )

    yield* Effect.forkScoped(Effect.repeat(watch, Schedule.spaced(WATCH_INTERVAL)))
  }))
