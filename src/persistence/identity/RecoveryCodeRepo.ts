import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { UserId } from "../../domain/identity/Ids.js"

/**
 * MFA recovery codes, stored only as salted scrypt hashes (ASVS 6.5.2: about
 * 50 bits each, under the 112 that would allow a plain hash), all of a user's
 * codes with one salt, each usable once.
 */
export class RecoveryCodeRepo extends Effect.Service<RecoveryCodeRepo>()("parley/persistence/RecoveryCodeRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** Replace a user's codes with new ones. */
      replace: (userId: UserId, hashes: ReadonlyArray<string>) =>
        Effect.zipRight(
          sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`,
          hashes.length === 0
            ? Effect.void
            : Effect.asVoid(
              sql`INSERT INTO recovery_codes ${
                sql.insert(hashes.map((codeHash) => ({ userId, codeHash, usedAt: null })))
              }`
            )
        ).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("RecoveryCodeRepo.replace")),
      /** One of the user's unused codes' hashes (they share a salt), if any is left. */
      oneUnused: (userId: UserId) =>
        sql<{ codeHash: string }>`
          SELECT code_hash FROM recovery_codes WHERE user_id = ${userId} AND used_at IS NULL LIMIT 1`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.codeHash)),
          Effect.orDie,
          Effect.withSpan("RecoveryCodeRepo.oneUnused")
        ),
      /** Spend a code: true when it was unused (and is now used). */
      spend: (userId: UserId, codeHash: string, now: Date) =>
        sql<{ codeHash: string }>`
          UPDATE recovery_codes SET used_at = ${now}
          WHERE user_id = ${userId} AND code_hash = ${codeHash} AND used_at IS NULL
          RETURNING code_hash`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("RecoveryCodeRepo.spend")
        )
    } as const
  })
}) {}
