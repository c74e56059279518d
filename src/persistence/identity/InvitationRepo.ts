import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Schema } from "effect"
import { Role } from "../../domain/Capability.js"
import type { Email } from "../../domain/identity/Email.js"
import { UserId, WorkspaceId } from "../../domain/identity/Ids.js"
import { Invitation, InvitationId } from "../../domain/identity/Invitation.js"

/** An `invitations` row. */
export const InvitationRow = Schema.Struct({
  id: InvitationId,
  workspaceId: WorkspaceId,
  email: Schema.String,
  role: Role,
  tokenHash: Schema.String,
  invitedBy: Schema.NullOr(UserId),
  expiresAt: Schema.DateFromSelf,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type InvitationRow = typeof InvitationRow.Type

/** The invitation as the API shows it. */
export const toInvitation = (row: InvitationRow): Invitation =>
  Invitation.make({
    id: row.id,
    workspaceId: row.workspaceId,
    email: row.email as Email,
    role: row.role,
    tokenHash: row.tokenHash,
    invitedBy: row.invitedBy,
    expiresAt: DateTime.unsafeFromDate(row.expiresAt),
    createdAt: DateTime.unsafeFromDate(row.createdAt),
    updatedAt: DateTime.unsafeFromDate(row.updatedAt)
  })

/** Pending invitations to workspaces. */
export class InvitationRepo extends Effect.Service<InvitationRepo>()("parley/persistence/InvitationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const list = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: InvitationRow,
      execute: (workspaceId) => sql`SELECT * FROM invitations WHERE workspace_id = ${workspaceId} ORDER BY created_at`
    })
    const lockByToken = SqlSchema.findOne({
      Request: Schema.String,
      Result: InvitationRow,
      execute: (tokenHash) => sql`SELECT * FROM invitations WHERE token_hash = ${tokenHash} FOR UPDATE`
    })
    /** Insert, or replace the pending invitation of the same address (a new link; the old one stops working). */
    const upsert = SqlSchema.single({
      Request: InvitationRow,
      Result: InvitationRow,
      execute: (row) =>
        sql`INSERT INTO invitations ${sql.insert(row)}
            ON CONFLICT (workspace_id, email) DO UPDATE SET
              role = EXCLUDED.role, token_hash = EXCLUDED.token_hash, invited_by = EXCLUDED.invited_by,
              expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at
            RETURNING *`
    })

    return {
      list: (workspaceId: WorkspaceId) => list(workspaceId).pipe(Effect.orDie, Effect.withSpan("InvitationRepo.list")),
      upsert: (row: InvitationRow) => upsert(row).pipe(Effect.orDie, Effect.withSpan("InvitationRepo.upsert")),
      /** Read the invitation a token names and lock it, so it is accepted once. */
      lockByToken: (tokenHash: string) =>
        lockByToken(tokenHash).pipe(Effect.orDie, Effect.withSpan("InvitationRepo.lockByToken")),
      /** Delete an invitation of a workspace; false when there was none. */
      delete: (workspaceId: WorkspaceId, id: InvitationId) =>
        sql<{ id: string }>`DELETE FROM invitations WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`
          .pipe(
            Effect.map((rows) => rows.length === 1),
            Effect.orDie,
            Effect.withSpan("InvitationRepo.delete")
          )
    } as const
  })
}) {}
