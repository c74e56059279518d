import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { SessionId, UserId } from "../../domain/identity/Ids.js"

/** A `sessions` row: one signed-in device, a refresh-token family. */
export const SessionRow = Schema.Struct({
  id: SessionId,
  userId: UserId,
  userAgent: Schema.NullOr(Schema.String),
  ipAddress: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  /** When the session last proved every factor of its user: its sign-in, or a re-authentication. */
  authenticatedAt: Schema.DateFromSelf,
  lastUsedAt: Schema.DateFromSelf,
  expiresAt: Schema.DateFromSelf,
  revokedAt: Schema.NullOr(Schema.DateFromSelf),
  revokedReason: Schema.NullOr(Schema.String)
})
export type SessionRow = typeof SessionRow.Type

/** A refresh token and the session it belongs to, as a refresh reads them. */
export const RefreshTokenRow = Schema.Struct({
  tokenHash: Schema.String,
  sessionId: SessionId,
  createdAt: Schema.DateFromSelf,
  usedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type RefreshTokenRow = typeof RefreshTokenRow.Type

/** Sessions and their refresh tokens. */
export class SessionRepo extends Effect.Service<SessionRepo>()("parley/persistence/SessionRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const byId = SqlSchema.findOne({
      Request: SessionId,
      Result: SessionRow,
      execute: (id) => sql`SELECT * FROM sessions WHERE id = ${id}`
    })
    const activeOfUser = SqlSchema.findAll({
      Request: Schema.Struct({ userId: UserId, now: Schema.DateFromSelf }),
      Result: SessionRow,
      execute: ({ now, userId }) =>
        sql`SELECT * FROM sessions WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now}
            ORDER BY last_used_at DESC`
    })
    const lockRefreshToken = SqlSchema.findOne({
      Request: Schema.String,
      Result: RefreshTokenRow,
      execute: (hash) => sql`SELECT * FROM refresh_tokens WHERE token_hash = ${hash} FOR UPDATE`
    })

    const insert = (session: Omit<SessionRow, "revokedAt" | "revokedReason">) =>
      sql`INSERT INTO sessions ${sql.insert(session)}`

    const insertRefreshToken = (token: { tokenHash: string; sessionId: SessionId; createdAt: Date }) =>
      sql`INSERT INTO refresh_tokens ${sql.insert({ ...token, usedAt: null })}`

    /** Exchange a refresh token: mark it used and touch its session. */
    const markUsed = (hash: string, sessionId: SessionId, now: Date) =>
      Effect.zipRight(
        sql`UPDATE refresh_tokens SET used_at = ${now} WHERE token_hash = ${hash}`,
        sql`UPDATE sessions SET last_used_at = ${now} WHERE id = ${sessionId}`
      )

    const markAuthenticated = (sessionId: SessionId, now: Date) =>
      sql`UPDATE sessions SET authenticated_at = ${now} WHERE id = ${sessionId} AND revoked_at IS NULL`

    /** End a user's live sessions beyond the `keep` most recently used; answers the ids ended. */
    const revokeBeyond = (userId: UserId, keep: number, reason: string, now: Date) =>
      sql<{ id: SessionId }>`
        UPDATE sessions SET revoked_at = ${now}, revoked_reason = ${reason}
        WHERE id IN (
          SELECT id FROM sessions
          WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now}
          ORDER BY last_used_at DESC, created_at DESC
          OFFSET ${keep}
        )
        RETURNING id`.pipe(Effect.map((rows) => rows.map((row) => row.id)))

    /** End sessions; answers the ids actually ended (those still active). */
    const revoke = (
      where: { readonly sessionId?: SessionId; readonly userId?: UserId; readonly except?: SessionId },
      reason: string,
      now: Date
    ) =>
      sql<{ id: SessionId }>`
        UPDATE sessions SET revoked_at = ${now}, revoked_reason = ${reason}
        WHERE revoked_at IS NULL
          ${where.sessionId !== undefined ? sql`AND id = ${where.sessionId}` : sql``}
          ${where.userId !== undefined ? sql`AND user_id = ${where.userId}` : sql``}
          ${where.except !== undefined ? sql`AND id <> ${where.except}` : sql``}
        RETURNING id`.pipe(Effect.map((rows) => rows.map((row) => row.id)))

    return {
      findById: (id: SessionId) => byId(id).pipe(Effect.orDie, Effect.withSpan("SessionRepo.findById")),
      activeOfUser: (userId: UserId, now: Date) =>
        activeOfUser({ userId, now }).pipe(Effect.orDie, Effect.withSpan("SessionRepo.activeOfUser")),
      insert: (session: Omit<SessionRow, "revokedAt" | "revokedReason">) =>
        insert(session).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("SessionRepo.insert")),
      insertRefreshToken: (token: { tokenHash: string; sessionId: SessionId; createdAt: Date }) =>
        insertRefreshToken(token).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("SessionRepo.insertRefreshToken")),
      /** Read a refresh token and lock it until the transaction ends, so it is exchanged once. */
      lockRefreshToken: (hash: string) =>
        lockRefreshToken(hash).pipe(Effect.orDie, Effect.withSpan("SessionRepo.lockRefreshToken")),
      markUsed: (hash: string, sessionId: SessionId, now: Date) =>
        markUsed(hash, sessionId, now).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("SessionRepo.markUsed")),
      markAuthenticated: (sessionId: SessionId, now: Date) =>
        markAuthenticated(sessionId, now).pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("SessionRepo.markAuthenticated")
        ),
      revokeBeyond: (userId: UserId, keep: number, reason: string, now: Date) =>
        revokeBeyond(userId, keep, reason, now).pipe(Effect.orDie, Effect.withSpan("SessionRepo.revokeBeyond")),
      revoke: (where: Parameters<typeof revoke>[0], reason: string, now: Date) =>
        revoke(where, reason, now).pipe(Effect.orDie, Effect.withSpan("SessionRepo.revoke"))
    } as const
  })
}) {}
