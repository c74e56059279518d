import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * A column that holds values sealed by `SecretBox`, with the context they
 * were sealed for and the column that names a row. The master-key rotation
 * re-seals every one of them; a new sealed column belongs in `sealedColumns`.
 */
export interface SealedColumn {
  readonly table: string
  readonly column: string
  readonly key: string
  readonly context: string
}

/** Every column of values sealed with the master key (the vault's are in `secret_versions`, re-wrapped apart). */
export const sealedColumns: ReadonlyArray<SealedColumn> = [
  { table: "users", column: "totp_secret", key: "id", context: "totp-secret" },
  { table: "users", column: "totp_pending_secret", key: "id", context: "totp-secret" },
  { table: "signing_keys", column: "private_key", key: "kid", context: "signing-key" },
  { table: "workflow_chains", column: "ingress_secret", key: "id", context: "chain-ingress-secret" }
]

/** Reads and guarded rewrites of `SecretBox` values, for the master-key rotation. */
export class SealedValueRepo extends Effect.Service<SealedValueRepo>()("parley/persistence/SealedValueRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return {
      /** Up to `limit` values of a column not sealed under `keyId`, after the row `after`, in key order. */
      notSealedUnder: (column: SealedColumn, keyId: string, after: string | undefined, limit: number) =>
        sql<{ rowKey: string; sealed: string }>`SELECT ${sql(column.key)}::text AS row_key, ${
          sql(column.column)
        } AS sealed
          FROM ${sql(column.table)}
          WHERE ${sql(column.column)} IS NOT NULL AND NOT starts_with(${sql(column.column)}, ${`v2.${keyId}.`})
            ${after === undefined ? sql`` : sql`AND ${sql(column.key)}::text > ${after}`}
          ORDER BY ${sql(column.key)}::text LIMIT ${limit}`.pipe(
          Effect.orDie,
          Effect.withSpan("SealedValueRepo.notSealedUnder", { attributes: { table: column.table } })
        ),
      /** Write a re-sealed value, only while the row still holds `previous`; false when it changed meanwhile. */
      replace: (column: SealedColumn, rowKey: string, previous: string, next: string) =>
        sql<{ rowKey: string }>`UPDATE ${sql(column.table)} SET ${sql(column.column)} = ${next}
          WHERE ${sql(column.key)}::text = ${rowKey} AND ${sql(column.column)} = ${previous}
          RETURNING ${sql(column.key)}::text AS row_key`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("SealedValueRepo.replace", { attributes: { table: column.table } })
        )
    } as const
  })
}) {}
