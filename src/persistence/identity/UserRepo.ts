import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Option, Schema } from "effect"
import type { Email } from "../../domain/identity/Email.js"
import { UserId } from "../../domain/identity/Ids.js"
import { User } from "../../domain/identity/User.js"

/** A `users` row: the account and its credentials' state (secrets only as hashes or sealed). */
export const UserRow = Schema.Struct({
  id: UserId,
  email: Schema.String,
  displayName: Schema.String,
  passwordHash: Schema.String,
  passwordChangedAt: Schema.DateFromSelf,
  emailVerifiedAt: Schema.NullOr(Schema.DateFromSelf),
  mfaEnabledAt: Schema.NullOr(Schema.DateFromSelf),
  totpSecret: Schema.NullOr(Schema.String),
  totpPendingSecret: Schema.NullOr(Schema.String),
  totpPendingExpiresAt: Schema.NullOr(Schema.DateFromSelf),
  totpLastStep: Schema.NullOr(Schema.NumberFromString),
  /** Set by an operator (`parley users disable`): the account cannot sign in. */
  disabledAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type UserRow = typeof UserRow.Type

/** The user as the API shows it. */
export const toUser = (row: UserRow): User =>
  User.make({
    id: row.id,
    email: row.email as Email,
    displayName: row.displayName,
    passwordHash: row.passwordHash,
    emailVerified: row.emailVerifiedAt !== null,
    mfaEnabled: row.mfaEnabledAt !== null,
    createdAt: DateTime.unsafeFromDate(row.createdAt),
    updatedAt: DateTime.unsafeFromDate(row.updatedAt)
  })

/** Accounts: read by id or email, created at signup, changed by the credential flows. */
export class UserRepo extends Effect.Service<UserRepo>()("parley/persistence/UserRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const byId = SqlSchema.findOne({
      Request: UserId,
      Result: UserRow,
      execute: (id) => sql`SELECT * FROM users WHERE id = ${id}`
    })
    const byEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: UserRow,
      execute: (email) => sql`SELECT * FROM users WHERE email = ${email}`
    })
    const lockById = SqlSchema.findOne({
      Request: UserId,
      Result: UserRow,
      execute: (id) => sql`SELECT * FROM users WHERE id = ${id} FOR UPDATE`
    })

    /** Insert a new account; `None` when the email is taken (nothing is written). */
    const insert = (user: {
      readonly id: UserId
      readonly email: string
      readonly displayName: string
      readonly passwordHash: string
      readonly now: Date
    }) =>
      sql<{ id: string }>`
        INSERT INTO users ${
        sql.insert({
          id: user.id,
          email: user.email,
          displayName: user.displayName,
          passwordHash: user.passwordHash,
          passwordChangedAt: user.now,
          createdAt: user.now,
          updatedAt: user.now
        })
      }
        ON CONFLICT (email) DO NOTHING
        RETURNING id`.pipe(Effect.map((rows) => rows.length === 1 ? Option.some(user.id) : Option.none()))

    /** Change some columns of a user (always bumps `updated_at`). */
    const update = (id: UserId, changes: Partial<Omit<UserRow, "id" | "createdAt" | "updatedAt">>, now: Date) =>
      sql`UPDATE users SET ${sql.update({ ...changes, updatedAt: now })} WHERE id = ${id}`.pipe(Effect.asVoid)

    return {
      findById: (id: UserId) => byId(id).pipe(Effect.orDie, Effect.withSpan("UserRepo.findById")),
      findByEmail: (email: string) => byEmail(email).pipe(Effect.orDie, Effect.withSpan("UserRepo.findByEmail")),
      /** Read a user and lock the row until the transaction ends (credential changes race otherwise). */
      lockById: (id: UserId) => lockById(id).pipe(Effect.orDie, Effect.withSpan("UserRepo.lockById")),
      insert: (user: Parameters<typeof insert>[0]) =>
        insert(user).pipe(Effect.orDie, Effect.withSpan("UserRepo.insert")),
      update: (id: UserId, changes: Parameters<typeof update>[1], now: Date) =>
        update(id, changes, now).pipe(Effect.orDie, Effect.withSpan("UserRepo.update"))
    } as const
  })
}) {}
