/**
 * Moves every secret at rest to the current master key, while nodes keep
 * serving (`parley secrets rotate-master-key`). It re-wraps the vault's data
 * keys (never a value: the ciphertexts stay) and re-seals every `SecretBox`
 * value (TOTP seeds, signing keys). Each row is rewritten only while it still
 * holds what was read, so a concurrent write or a second rotation is never
 * overwritten; rows already under the current key are left alone, so a
 * second run does nothing. Before writing anything it checks that the ring
 * opens every row, and refuses, naming what it cannot open, when it does not.
 */
import { Data, Effect, Option } from "effect"
import { type SealedColumn, sealedColumns, SealedValueRepo } from "../persistence/SealedValueRepo.js"
import { SecretRepo, type SecretVersionRow } from "../persistence/workspace/SecretRepo.js"
import { MasterKey } from "./MasterKey.js"
import { SecretBox } from "./SecretBox.js"
import { rewrap } from "./workspace/Envelope.js"

/** How many rows one read takes. */
const BATCH = 200

/** Some rows open under no key of the ring: nothing was rewritten. */
export class MasterKeyRotationRefused extends Data.TaggedError("MasterKeyRotationRefused")<{
  readonly problems: ReadonlyArray<string>
}> {
  override get message() {
    return `refusing to rotate: ${this.problems.join("; ")}. Put the key they were written under in ` +
      "PARLEY_MASTER_KEY_PREVIOUS (comma-separated) and run the command again"
  }
}

/** What a rotation did. */
export interface MasterKeyRotationReport {
  readonly masterKeyId: string
  /** Vault data keys re-wrapped under the current key. */
  readonly rewrapped: number
  /** `SecretBox` values re-sealed under the current key, per `table.column`. */
  readonly resealed: Readonly<Record<string, number>>
  /** Rows that changed while the rotation read them (written by a node meanwhile): left as they were. */
  readonly changedMeanwhile: number
}

export class MasterKeyRotation extends Effect.Service<MasterKeyRotation>()("parley/services/MasterKeyRotation", {
  effect: Effect.gen(function*() {
    const masterKeys = yield* MasterKey
    const box = yield* SecretBox
    const secrets = yield* SecretRepo
    const sealed = yield* SealedValueRepo
    const current = masterKeys.current

    /** Each row of a sealed column not under the current key, batch by batch. */
    const forEachSealed = <E>(
      column: SealedColumn,
      f: (row: { readonly rowKey: string; readonly sealed: string }) => Effect.Effect<void, E>
    ) =>
      Effect.gen(function*() {
        let after: string | undefined = undefined
        while (true) {
          const rows: ReadonlyArray<{ rowKey: string; sealed: string }> = yield* sealed.notSealedUnder(
            column,
            current.id,
            after,
            BATCH
          )
          yield* Effect.forEach(rows, f, { discard: true })
          if (rows.length < BATCH) return
          after = rows[rows.length - 1]!.rowKey
        }
      })

    /** Every vault version not wrapped by the current key, batch by batch. */
    const forEachVersion = <E>(
      f: (row: SecretVersionRow) => Effect.Effect<void, E>
    ) =>
      Effect.gen(function*() {
        let after: { secretId: string; version: number } | undefined = undefined
        while (true) {
          const rows: ReadonlyArray<SecretVersionRow> = yield* secrets.wrappedByOthers(current.id, after, BATCH)
          yield* Effect.forEach(rows, f, { discard: true })
          if (rows.length < BATCH) return
          after = rows[rows.length - 1]!
        }
      })

    /** What the ring cannot open, if anything. */
    const check = Effect.fn("MasterKeyRotation.check")(function*() {
      const problems: Array<string> = []
      for (const { masterKeyId, versions } of yield* secrets.masterKeyCounts()) {
        if (Option.isNone(masterKeys.find(masterKeyId))) {
          problems.push(
            `${versions} vault secret version(s) are wrapped by master key ${masterKeyId}, which is not configured`
          )
        }
      }
      for (const column of sealedColumns) {
        let unopened = 0
        yield* forEachSealed(
          column,
          (row) =>
            Effect.catchAll(Effect.asVoid(box.open(row.sealed, column.context)), () =>
              Effect.sync(() => {
                unopened++
              }))
        )
        if (unopened > 0) {
          problems.push(`${unopened} value(s) in ${column.table}.${column.column} open under no configured master key`)
        }
      }
      return problems
    })

    const rotate = Effect.fn("MasterKeyRotation.rotate")(function*() {
      const problems = yield* check()
      if (problems.length > 0) return yield* new MasterKeyRotationRefused({ problems })
      let rewrapped = 0
      let changedMeanwhile = 0
      yield* forEachVersion((row) =>
        Effect.gen(function*() {
          const from = Option.getOrThrow(masterKeys.find(row.masterKeyId))
          const moved = rewrap(row, { secretId: row.secretId, version: row.version }, from, current)
          if (moved === undefined) {
            return yield* new MasterKeyRotationRefused({
              problems: [`the data key of secret ${row.secretId} version ${row.version} does not open`]
            })
          }
          if (yield* secrets.rewrap(row, row.masterKeyId, moved)) rewrapped++
          else changedMeanwhile++
        })
      )
      const resealed: Record<string, number> = {}
      for (const column of sealedColumns) {
        const name = `${column.table}.${column.column}`
        resealed[name] = 0
        yield* forEachSealed(column, (row) =>
          Effect.gen(function*() {
            const next = yield* box.reseal(row.sealed, column.context).pipe(
              Effect.mapError(() =>
                new MasterKeyRotationRefused({ problems: [`a value in ${name} (${row.rowKey}) does not open`] })
              )
            )
            if (Option.isNone(next)) return
            if (yield* sealed.replace(column, row.rowKey, row.sealed, next.value)) resealed[name]!++
            else changedMeanwhile++
          }))
      }
      return { masterKeyId: current.id, rewrapped, resealed, changedMeanwhile } satisfies MasterKeyRotationReport
    })

    return { check, rotate } as const
  }),
  dependencies: [SecretRepo.Default, SealedValueRepo.Default]
}) {}
