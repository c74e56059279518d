import { Context, type Effect } from "effect"

/** Connections of the node's database pool: open, idle, and clients waiting for one. */
export interface PoolStats {
  readonly total: number
  readonly idle: number
  readonly waiting: number
}

/** Which database this node runs on, for readiness, metrics and `parley info`. */
export class DatabaseInfo extends Context.Tag("parley/persistence/DatabaseInfo")<DatabaseInfo, {
  readonly kind: "server" | "embedded"
  /** The server's host and database, or the embedded data directory; never a password. */
  readonly location: string
  readonly poolStats: Effect.Effect<PoolStats>
}>() {}
