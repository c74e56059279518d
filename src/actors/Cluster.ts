/**
 * The cluster this node belongs to. On a PostgreSQL server, every node is a
 * runner: it registers in the database, holds its shards with advisory
 * locks, reaches the others over the socket transport at their runner
 * addresses, and keeps persisted mailboxes in the same database (no other
 * infrastructure). On the embedded database there is one node by
 * construction, so it runs the cluster alone: persisted mailboxes in the
 * embedded database, runners in memory, no socket and no advisory locks
 * (which would share the single embedded backend with the application's own).
 */
import { RunnerAddress, type ShardingConfig, SingleRunner } from "@effect/cluster"
import { NodeClusterSocket } from "@effect/platform-node"
import { Duration, Effect, Layer, Option } from "effect"
import { RunnerAddressSettings, ShardTiming } from "../config/Settings.js"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"

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
    entityMaxIdleTime: timing.entityMaxIdleTime,
    // A reply waited for in storage (a retry while the owner moves) is seen within 50 ms.
    entityReplyPollInterval: Duration.millis(50),
    // A newly acquired shard's unprocessed messages are found at once; this is the fallback sweep.
    entityMessagePollInterval: Duration.seconds(2)
  } satisfies Partial<ShardingConfig.ShardingConfig["Type"]>
})

/** The sharding of this node: a socket runner on a server database, a single runner on the embedded one. */
export const ClusterLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const database = yield* DatabaseInfo
    const config = yield* shardingConfig
    return database.kind === "server"
      ? NodeClusterSocket.layer({ storage: "sql", shardingConfig: config })
      : SingleRunner.layer({ shardingConfig: { ...config, shardLockDisableAdvisory: true }, runnerStorage: "memory" })
  })
)
