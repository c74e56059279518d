/**
 * Who did something in a workspace. One set of shapes serves every
 * `createdBy`/`updatedBy` of a resource and the audit log, so a client reads
 * an actor the same way everywhere.
 */
import { Schema } from "effect"
import { ApiTokenId, UserId } from "./Ids.js"

/** A signed-in member acted. */
export const UserActor = Schema.Struct({
  kind: Schema.Literal("user"),
  userId: UserId
}).annotations({ identifier: "UserActor" })

/** Automation acted through a workspace API token. */
export const ApiTokenActor = Schema.Struct({
  kind: Schema.Literal("api-token"),
  tokenId: ApiTokenId
}).annotations({ identifier: "ApiTokenActor" })

/** Parley itself acted: a scheduled job, a retention sweep, a cascade of another write. */
export const SystemActor = Schema.Struct({
  kind: Schema.Literal("system")
}).annotations({ identifier: "SystemActor" })

/** Who made a change through an authenticated route: the two kinds of principal that reach one. */
export const Actor = Schema.Union(UserActor, ApiTokenActor).annotations({ identifier: "Actor" })
export type Actor = typeof Actor.Type

/** Who did what the audit log records: a principal, or Parley itself. */
export const AuditActor = Schema.Union(UserActor, ApiTokenActor, SystemActor).annotations({
  identifier: "AuditActor"
})
export type AuditActor = typeof AuditActor.Type

/** How an actor was shown when they acted (a user's name, a token's name, `Parley`), so a log reads well later. */
export const ActorDisplay = Schema.String.pipe(Schema.maxLength(200))
