import { Context } from "effect"
import type { Role } from "../Capability.js"
import type { Actor } from "./Actor.js"
import type { ApiTokenId, SessionId, UserId, WorkspaceId } from "./Ids.js"

/** Who is calling an authenticated route, and in which workspace, as established by the authentication middleware. */
export type Principal =
  | {
    readonly _tag: "User"
    readonly userId: UserId
    readonly sessionId: SessionId
    readonly displayName: string
    readonly emailVerified: boolean
    readonly mfaEnabled: boolean
    readonly workspaceId: WorkspaceId
    readonly role: Role
  }
  | {
    readonly _tag: "ApiToken"
    readonly tokenId: ApiTokenId
    /** The token's name, as the audit log shows who acted. */
    readonly displayName: string
    readonly workspaceId: WorkspaceId
    readonly role: Role
  }

/** The principal of the current request. */
export class CurrentPrincipal extends Context.Tag("parley/CurrentPrincipal")<CurrentPrincipal, Principal>() {}

/** The principal as a resource's `createdBy` and the audit log record an actor. */
export const actorOf = (principal: Principal): Actor =>
  principal._tag === "User"
    ? { kind: "user", userId: principal.userId }
    : { kind: "api-token", tokenId: principal.tokenId }
