import { Schema } from "effect"
import { ApiTokenId, UserId } from "../identity/Ids.js"

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

/**
 * Who made a change to a workspace resource (created a secret, saved a
 * setting): the two kinds of principal that reach authenticated routes.
 */
export const Actor = Schema.Union(UserActor, ApiTokenActor).annotations({ identifier: "Actor" })
export type Actor = typeof Actor.Type
