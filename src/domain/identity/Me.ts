import { Schema } from "effect"
import { SessionId } from "./Ids.js"
import { User } from "./User.js"
import { WorkspaceMembership } from "./Workspace.js"

/**
 * The signed-in user, the session making the request and every workspace
 * they belong to with their role (the first is the default when a request
 * has no `X-Workspace-Id`).
 */
export const Me = Schema.Struct({
  user: User.json,
  sessionId: SessionId,
  memberships: Schema.Array(WorkspaceMembership)
}).annotations({ identifier: "Me" })
export type Me = typeof Me.Type
