/**
 * The cluster this node belongs to. On a PostgreSQL server, every node is a
 * runner: it registers in the database, holds its shards with lock rows that
 * expire unless it renews them, reaches the others over the socket transport
 * at their runner addresses, and keeps persisted mailboxes in the same
 * database (no other infrastructure). Expiring rows rather than session
 * advisory locks: a node that stops without dying (frozen, its event loop
 * stalled) keeps its connections, and with them any advisory lock, for as
 * long as it is frozen, while a row it no longer renews lets the others take
 * its shards after the lock expiration; fencing makes its late writes, when it
 * wakes, change nothing; a node whose process is gone (its runner port
 * refuses connections) loses them at once (`DeadRunners.ts`). On the embedded database there is one node by
 * construction, so it runs the cluster alone: persisted mailboxes in the
 * embedded database, runners in memory, no socket and no advisory locks
 * (which would share the single embedded backend with the application's own).
 */
import { RunnerAddress, type ShardingConfig, SingleRunner } from "@effect/cluster"
import { NodeClusterSocket } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { DatabaseUrl, RunnerAddressSettings, ShardTiming } from "../config/Settings.js"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"
import { DeadRunnersLive } from "./DeadRunners.js"

/** The sharding configuration of this node, from Parley's settings (never the library's generic HOST/PORT). */
export const shardingConfig = Effect.gen(function*() {
  const address = yield* RunnerAddressSettings
  const timing = yield* ShardTiming
  return {
    runnerAddress: Option.some(RunnerAddress.make(address.host, address.port)),
    runnerListenAddress: Option.map(address.listenHost, (host) => RunnerAddress.make(host, address.port)),
    shardsPerGroup: timing.shardsPerGroup,
    shardLockExpiration: timing.lockExpiration,
    shardLockRefreshInterval: timing.lockRefreshInterval,
    refreshAssignmentsInterval: timing.refreshAssignmentsInterval,
    runnerHealthCheckInterval: timing.runnerHealthCheckInterval,
    // Shard locks are rows renewed every lock refresh interval and taken over once older than the expiration.
    shardLockDisableAdvisory: true,
    entityMaxIdleTime: timing.entityMaxIdleTime,
    // A reply waited for in storage (a retry while the owner moves) is seen within 50 ms.
    entityReplyPollInterval: Duration.millis(50),
    // A newly acquired shard's unprocessed messages are found at once; this is the fallback sweep.
    entityMessagePollInterval: Duration.seconds(2)
  } satisfies Partial<ShardingConfig.ShardingConfig["Type"]>
})

/** The advisory lock under which a node joins the cluster (an arbitrary number, Parley's own). */
const JOIN_LOCK = 7_340_712_345

/**
 * How long leaving the cluster may take. It stops the node's entities (a
 * turn in progress finishes) and releases its shard locks in the database;
 * with the database gone that cannot finish, and the node must stop anyway
 * (its locks die with its connections).
 */
export const LEAVE_LIMIT = Duration.seconds(20)

/**
 * Builds `layer` while holding a PostgreSQL advisory lock, so nodes started
 * together on a new database join one at a time: the cluster's storage creates
 * its tables as it starts, and concurrent creations of one table collide. The
 * layer is released within `LEAVE_LIMIT`.
 */
const joinOneAtATime = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const lockScope = yield* Scope.make()
      yield* Effect.acquireRelease(
        Effect.flatMap(sql.reserve, (connection) =>
          Effect.as(connection.executeRaw(`SELECT pg_advisory_lock(${JOIN_LOCK})`, []), connection)),
        (connection) =>
          Effect.ignore(connection.executeRaw(`SELECT pg_advisory_unlock(${JOIN_LOCK})`, []))
      ).pipe(Effect.orDie, Scope.extend(lockScope))
      const clusterScope = yield* Scope.make()
      yield* Effect.addFinalizer((exit) =>
        Scope.close(clusterScope, exit).pipe(
          // A finalizer cannot be interrupted; let the time-out stop waiting while the leaving goes on.
          Effect.disconnect,
          Effect.interruptible,
          Effect.timeout(LEAVE_LIMIT),
          Effect.catchTag("TimeoutException", () =>
            Effect.logWarning(`Leaving the cluster took longer than ${Duration.format(LEAVE_LIMIT)}; stopping anyway`))
        )
      )
      return yield* Layer.buildWithScope(layer, clusterScope).pipe(
        Effect.ensuring(Scope.close(lockScope, Exit.void))
      )
    })
  )

/**
 * The cluster's own connections to the server, whose commits do not wait for
 * the disk. Its bookkeeping (a turn's message, its reply, the processed mark)
 * can be lost in a database crash without harm, because Parley commits the
 * turn itself synchronously, keyed by its idempotency key: a lost message was
 * never answered (its client retries), a lost reply or mark only means a
 * redelivery, which the key check answers from the stored turn. Shard
 * ownership is held by lock rows renewed every second: a lock write lost in a
 * database crash is noticed at the next renewal (the node finds the row is not
 * its own), and fencing covers the moment in between. This saves three of a
 * turn's four WAL flushes.
 *
 * A transaction of these connections left idle for 2 s is ended by the server:
 * the cluster's transactions are a few statements long, and a node that
 * freezes between two of them (saving a reply: mark the message processed,
 * insert the reply) would otherwise hold that message's row lock for as long
 * as it is frozen, and with it the storage read of the node that took its
 * shards, which locks the unprocessed messages of all its shards at once.
 */
const clusterClient = (url: Redacted.Redacted) => {
  const withAsyncCommit = new URL(Redacted.value(url))
  const options = withAsyncCommit.searchParams.get("options")
  withAsyncCommit.searchParams.set(
    "options",
    `${options === null ? "" : `${options} `}-c synchronous_commit=off -c idle_in_transaction_session_timeout=2000`
  )
  return PgClient.layer({
    url: Redacted.make(withAsyncCommit.toString()),
    maxConnections: 5,
    applicationName: "parley-cluster"
  }).pipe(Layer.orDie)
}

/** The sharding of this node: a socket runner on a server database, a single runner on the embedded one. */
export const ClusterLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const database = yield* DatabaseInfo
    const config = yield* shardingConfig
    const url = yield* DatabaseUrl
    return database.kind === "server" && Option.isSome(url) && Option.isSome(config.runnerAddress)
      ? joinOneAtATime(
        Layer.merge(
          NodeClusterSocket.layer({ storage: "sql", shardingConfig: config }),
          DeadRunnersLive(config.runnerAddress.value, config.shardLockRefreshInterval)
        ).pipe(Layer.provide(clusterClient(url.value)))
      )
      : SingleRunner.layer({ shardingConfig: config, runnerStorage: "memory" })
  })
)
