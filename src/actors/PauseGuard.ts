/**
 * A node whose process stood still (frozen by SIGSTOP, its virtual machine
 * paused, its event loop blocked or starved) for longer than its shard locks
 * are sure to outlive stops serving and exits, so that its supervisor starts
 * it afresh; the way an HBase region server aborts when it wakes from a pause
 * longer than its ZooKeeper session.
 *
 * Why not carry on: while it stood still its lock rows may have expired and
 * other nodes taken its shards. Fencing already makes whatever it writes on
 * waking change nothing, but the cluster library's way back (release the
 * shards it lost, then take the ones the ring gives it again) was seen to
 * leave conversations without an owner for minutes: the woken node is still a
 * healthy runner to the others, so the ring gives it its shards back at once,
 * while it has not finished releasing them and takes none of them until it
 * has (see docs/CLUSTER.md, "A node that freezes"). A node that starts afresh
 * joins like any new node, which is the path every failover test runs.
 *
 * Only for a node of a cluster on a PostgreSQL server, and only in the
 * process `parley serve` runs (tests that build the node inside their own
 * process do not exit).
 */
import { Duration, Effect, Layer, Runtime } from "effect"
import { ShardTiming } from "../config/Settings.js"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"

/** The exit status of a node that stopped after a pause: a temporary failure, to restart (EX_TEMPFAIL). */
export const PAUSED_EXIT_CODE = 75

/** How often the guard looks at the clock. */
const TICK_MS = 200

/**
 * The longest pause after which every shard lock is sure to be still this
 * node's: a lock last renewed up to one refresh interval before the pause
 * expires `lockExpiration` after that renewal.
 */
export const safePause = (timing: {
  readonly lockExpiration: Duration.Duration
  readonly lockRefreshInterval: Duration.Duration
}): Duration.Duration => Duration.subtract(timing.lockExpiration, timing.lockRefreshInterval)

/**
 * Watch the clock every `TICK_MS` from a timer of its own (not a fiber, so
 * that it sees the pause as soon as the process runs again, whatever the
 * fibers waiting to run); on a pause longer than `limit`, log why and call
 * `exit`.
 */
export const watchPauses = (limit: Duration.Duration, exit: (pausedMs: number) => void) =>
  Effect.gen(function*() {
    const limitMs = Duration.toMillis(limit)
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      const pausedMs = now - last - TICK_MS
      last = now
      if (pausedMs > limitMs) exit(pausedMs)
    }, TICK_MS)
    // Never what keeps the process alive.
    timer.unref()
    yield* Effect.addFinalizer(() => Effect.sync(() => clearInterval(timer)))
  })

/** Exits the process after a pause longer than the shard locks are safe for, on a cluster node. */
export const PauseGuardLive = Layer.scopedDiscard(
  Effect.gen(function*() {
    const database = yield* DatabaseInfo
    if (database.kind !== "server") return
    const limit = safePause(yield* ShardTiming)
    const runSync = Runtime.runSync(yield* Effect.runtime<never>())
    yield* watchPauses(limit, (pausedMs) => {
      runSync(
        Effect.logError(
          `This node stood still for ${(pausedMs / 1000).toFixed(1)} s, longer than its shard locks are sure to ` +
            `last (${Duration.format(limit)}): other nodes may own its conversations now. Exiting with status ` +
            `${PAUSED_EXIT_CODE} to be started afresh.`
        ).pipe(Effect.annotateLogs({ pausedMs: Math.round(pausedMs) }))
      )
      // Fail-stop: nothing of this process's state is to be trusted or handed over; the database holds it all.
      process.exit(PAUSED_EXIT_CODE)
    })
  })
)
