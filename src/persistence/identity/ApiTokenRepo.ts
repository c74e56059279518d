import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Schema } from "effect"
import { Role } from "../../domain/Capability.js"
import { ApiToken } from "../../domain/identity/ApiToken.js"
import { ApiTokenId, UserId, WorkspaceId } from "../../domain/identity/Ids.js"

/** An `api_tokens` row. */
export const ApiTokenRow = Schema.Struct({
  id: ApiTokenId,
  workspaceId: WorkspaceId,
  name: Schema.String,
  role: Role,
  hint: Schema.String,
  tokenHash: Schema.String,
  createdBy: Schema.NullOr(UserId),
  createdAt: Schema.DateFromSelf,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf),
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  revokedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type ApiTokenRow = typeof ApiTokenRow.Type

const toDateTime = (date: Date | null) => (date === null ? null : DateTime.unsafeFromDate(date))

/** The token as the API lists it (never its secret). */
export const toApiToken = (row: ApiTokenRow): ApiToken =>
  ApiToken.make({
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    role: row.role,
    hint: row.hint,
    tokenHash: row.tokenHash,
    createdBy: row.createdBy,
    createdAt: DateTime.unsafeFromDate(row.createdAt),
    lastUsedAt: toDateTime(row.lastUsedAt),
    expiresAt: toDateTime(row.expiresAt)
  })

/** Workspace automation tokens, stored only as hashes. */
export class ApiTokenRepo extends Effect.Service<ApiTokenRepo>()("parley/persistence/ApiTokenRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const list = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: ApiTokenRow,
      execute: (workspaceId) =>
        sql`SELECT * FROM api_tokens WHERE workspace_id = ${workspaceId} AND revoked_at IS NULL ORDER BY created_at`
    })
    const byHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: ApiTokenRow,
      execute: (tokenHash) => sql`SELECT * FROM api_tokens WHERE token_hash = ${tokenHash}`
    })

    return {
      list: (workspaceId: WorkspaceId) => list(workspaceId).pipe(Effect.orDie, Effect.withSpan("ApiTokenRepo.list")),
      findByHash: (tokenHash: string) =>
        byHash(tokenHash).pipe(Effect.orDie, Effect.withSpan("ApiTokenRepo.findByHash")),
      /** Insert a token; false when a live token of the workspace has the name. */
      insert: (row: ApiTokenRow) =>
        sql<{ id: string }>`INSERT INTO api_tokens ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("ApiTokenRepo.insert")
        ),
      /** Revoke a live token of a workspace; false when there was none. */
      revoke: (workspaceId: WorkspaceId, id: ApiTokenId, now: Date) =>
        sql<{ id: string }>`UPDATE api_tokens SET revoked_at = ${now}
            WHERE workspace_id = ${workspaceId} AND id = ${id} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("ApiTokenRepo.revoke")
        ),
      /**
       * Revoke the live tokens a user created: all of them, or those of one
       * workspace, or only those whose role is among `roles`. Answers what was revoked.
       */
      revokeCreatedBy: (
        createdBy: UserId,
        now: Date,
        scope: { readonly workspaceId?: WorkspaceId; readonly roles?: ReadonlyArray<Role> } = {}
      ) =>
        sql<{ id: ApiTokenId; workspaceId: WorkspaceId; name: string; role: Role }>`
          UPDATE api_tokens SET revoked_at = ${now}
          WHERE created_by = ${createdBy} AND revoked_at IS NULL
            ${scope.workspaceId !== undefined ? sql`AND workspace_id = ${scope.workspaceId}` : sql``}
            ${scope.roles !== undefined ? sql`AND ${sql.in("role", scope.roles)}` : sql``}
          RETURNING id, workspace_id, name, role`.pipe(Effect.orDie, Effect.withSpan("ApiTokenRepo.revokeCreatedBy")),
      touch: (id: ApiTokenId, now: Date) =>
        sql`UPDATE api_tokens SET last_used_at = ${now} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("ApiTokenRepo.touch")
        )
    } as const
  })
}) {}
