import { SqlSchema } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Schema } from "effect"

/** A `signing_keys` row: a key pair of access tokens, the private half sealed with the master key. */
export const SigningKeyRow = Schema.Struct({
  kid: Schema.String,
  algorithm: Schema.String,
  publicJwk: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  privateKey: Schema.String,
  createdAt: Schema.DateFromSelf,
  retiredAt: Schema.NullOr(Schema.DateFromSelf)
})
export type SigningKeyRow = typeof SigningKeyRow.Type

/** An arbitrary, fixed advisory-lock key for generating signing keys. */
const GENERATION_LOCK = 7_061_042_001

/** The signing keys Parley generated for itself (outside production, where the key is configured). */
export class SigningKeyRepo extends Effect.Service<SigningKeyRepo>()("parley/persistence/SigningKeyRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const active = SqlSchema.findAll({
      Request: Schema.Void,
      Result: SigningKeyRow,
      execute: () => sql`SELECT * FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at, kid`
    })
    return {
      /** The keys in use, oldest first: every node signs with the first, so they agree. */
      active: () => active().pipe(Effect.orDie, Effect.withSpan("SigningKeyRepo.active")),
      /**
       * Run `effect` in a transaction that holds the key-generation lock, so
       * nodes starting at once on an empty database generate one key, not two.
       */
      withGenerationLock: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        sql.withTransaction(
          Effect.zipRight(sql`SELECT pg_advisory_xact_lock(${GENERATION_LOCK})`.pipe(Effect.orDie), effect)
        ).pipe(Effect.orDie),
      insert: (row: Omit<SigningKeyRow, "retiredAt">) =>
        sql`INSERT INTO signing_keys ${sql.insert({ ...row, publicJwk: sql.json(row.publicJwk), retiredAt: null })}
            ON CONFLICT (kid) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("SigningKeyRepo.insert"))
    } as const
  })
}) {}
