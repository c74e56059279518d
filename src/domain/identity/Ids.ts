import { Schema } from "effect"

/** A workspace: the unit of ownership; every resource belongs to one. */
export const WorkspaceId = Schema.UUID.pipe(Schema.brand("WorkspaceId"))
export type WorkspaceId = typeof WorkspaceId.Type

/** A person with an account. */
export const UserId = Schema.UUID.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

/** One signed-in session of a user (a refresh-token family). */
export const SessionId = Schema.UUID.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

/** A workspace automation token. */
export const ApiTokenId = Schema.UUID.pipe(Schema.brand("ApiTokenId"))
export type ApiTokenId = typeof ApiTokenId.Type
