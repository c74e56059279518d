import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { SessionId, UserId } from "../../domain/identity/Ids.js"

/** What a one-time token is for. */
export type OneTimePurpose = "password-reset" | "email-verification" | "mfa-challenge"

/** A `one_time_tokens` row: stored only as a hash, used once, expiring. */
export const OneTimeTokenRow = Schema.Struct({
  tokenHash: Schema.String,
  purpose: Schema.Literal("password-reset", "email-verification", "mfa-challenge"),
  userId: Schema.NullOr(UserId),
  sessionId: Schema.NullOr(SessionId),
  createdAt: Schema.DateFromSelf,
  expiresAt: Schema.DateFromSelf,
  usedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type OneTimeTokenRow = typeof OneTimeTokenRow.Type

/** Single-use tokens of mail links and MFA challenges. */
export class OneTimeTokenRepo extends Effect.Service<OneTimeTokenRepo>()("parley/persistence/OneTimeTokenRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const lock = SqlSchema.findOne({
      Request: Schema.Struct({ tokenHash: Schema.String, purpose: Schema.String }),
      Result: OneTimeTokenRow,
      execute: ({ purpose, tokenHash }) =>
        sql`SELECT * FROM one_time_tokens WHERE token_hash = ${tokenHash} AND purpose = ${purpose} FOR UPDATE`
    })

    return {
      insert: (row: Omit<OneTimeTokenRow, "usedAt">) =>
        sql`INSERT INTO one_time_tokens ${sql.insert({ ...row, usedAt: null })}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("OneTimeTokenRepo.insert")
        ),
      /** Read a token of a purpose and lock it until the transaction ends, so it is used once. */
      lock: (tokenHash: string, purpose: OneTimePurpose) =>
        lock({ tokenHash, purpose }).pipe(Effect.orDie, Effect.withSpan("OneTimeTokenRepo.lock")),
      markUsed: (tokenHash: string, now: Date) =>
        sql`UPDATE one_time_tokens SET used_at = ${now} WHERE token_hash = ${tokenHash}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("OneTimeTokenRepo.markUsed")
        ),
      /** Spend every unused token of a user for a purpose: a new link replaces the old ones. */
      spendAll: (userId: UserId, purpose: OneTimePurpose, now: Date) =>
        sql`UPDATE one_time_tokens SET used_at = ${now}
            WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("OneTimeTokenRepo.spendAll")
        )
    } as const
  })
}) {}
