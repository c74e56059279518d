import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Actor, type AuditActor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { SecretId, SecretName } from "../../domain/workspace/Ids.js"
import { ResourceRef } from "../../domain/workspace/ResourceRef.js"
import { SecretVersion } from "../../domain/workspace/Secret.js"

/** A `secrets` row: everything that may be shown of a secret. */
export const SecretRow = Schema.Struct({
  id: SecretId,
  workspaceId: WorkspaceId,
  name: SecretName,
  description: Schema.String,
  version: SecretVersion,
  maskedHint: Schema.NullOr(Schema.String),
  createdBy: Schema.parseJson(Actor),
  updatedBy: Schema.parseJson(Actor),
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate,
  lastUsedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
  lastUsedBy: Schema.NullOr(Schema.parseJson(ResourceRef)),
  useCount: Schema.Number
})
export type SecretRow = typeof SecretRow.Type

/** A `secret_versions` row: the sealed value of one version. */
export const SecretVersionRow = Schema.Struct({
  secretId: SecretId,
  version: SecretVersion,
  ciphertext: Schema.Uint8ArrayFromSelf,
  wrappedKey: Schema.Uint8ArrayFromSelf,
  masterKeyId: Schema.String
})
export type SecretVersionRow = typeof SecretVersionRow.Type

/** A new secret: its shown fields and its first sealed value. */
export interface SecretInsert {
  readonly id: SecretId
  readonly workspaceId: WorkspaceId
  readonly name: string
  readonly description: string
  readonly maskedHint: string | null
  readonly createdBy: Actor
  readonly at: Date
}

/** The sealed value of a version, as written. */
export interface SealedVersion {
  readonly secretId: SecretId
  readonly version: number
  readonly ciphertext: Uint8Array
  readonly wrappedKey: Uint8Array
  readonly masterKeyId: string
  readonly createdBy: Actor
  readonly at: Date
}

const json = (value: unknown) => JSON.stringify(value)
const bytes = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength)

/* JSON columns are read as text: the client would rename snake_case keys inside them. */
const columns = `id, workspace_id, name, description, version, masked_hint, created_by::text AS created_by,
  updated_by::text AS updated_by, created_at, updated_at, last_used_at, last_used_by::text AS last_used_by,
  use_count::float8 AS use_count`

/** The vault's secrets and their sealed current versions. */
export class SecretRepo extends Effect.Service<SecretRepo>()("parley/persistence/SecretRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)

    const filter = (workspaceId: string, q: string | undefined) =>
      q === undefined
        ? sql`workspace_id = ${workspaceId}`
        : sql`workspace_id = ${workspaceId} AND strpos(lower(name), lower(${q})) > 0`

    const page = SqlSchema.findAll({
      Request: Schema.Struct({
        workspaceId: Schema.String,
        q: Schema.UndefinedOr(Schema.String),
        limit: Schema.Number,
        offset: Schema.Number
      }),
      Result: SecretRow,
      execute: ({ limit, offset, q, workspaceId }) =>
        sql`SELECT ${select} FROM secrets WHERE ${filter(workspaceId, q)}
          ORDER BY name LIMIT ${limit} OFFSET ${offset}`
    })
    const byId = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: WorkspaceId, id: SecretId }),
      Result: SecretRow,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${select} FROM secrets WHERE workspace_id = ${workspaceId} AND id = ${id}`
    })
    const byIdForUpdate = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: WorkspaceId, id: SecretId }),
      Result: SecretRow,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${select} FROM secrets WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`
    })
    const versionOf = SqlSchema.findOne({
      Request: Schema.Struct({ secretId: SecretId, version: Schema.Number }),
      Result: SecretVersionRow,
      execute: ({ secretId, version }) =>
        sql`SELECT secret_id, version, ciphertext, wrapped_key, master_key_id FROM secret_versions
          WHERE secret_id = ${secretId} AND version = ${version}`
    })
    const decodeRow = Schema.decodeUnknown(Schema.Array(SecretRow))
    const decodeVersions = Schema.decodeUnknown(Schema.Array(SecretVersionRow))

    const writeVersion = (row: SealedVersion) =>
      sql`INSERT INTO secret_versions (secret_id, version, ciphertext, wrapped_key, master_key_id, created_by, created_at)
        VALUES (${row.secretId}, ${row.version}, ${bytes(row.ciphertext)}, ${bytes(row.wrappedKey)},
          ${row.masterKeyId}, ${json(row.createdBy)}::jsonb, ${row.at})`

    return {
      page: (workspaceId: WorkspaceId, q: string | undefined, limit: number, offset: number) =>
        Effect.all([
          page({ workspaceId, q, limit, offset }),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM secrets WHERE ${filter(workspaceId, q)}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("SecretRepo.page")
        ),
      find: (workspaceId: WorkspaceId, id: SecretId) =>
        byId({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("SecretRepo.find")),
      /** The secret, its row locked for update until the transaction ends (a delete's first step). */
      findForUpdate: (workspaceId: WorkspaceId, id: SecretId) =>
        byIdForUpdate({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("SecretRepo.findForUpdate")),
      /** Insert a secret and its first version; false when the workspace has a secret of this name. */
      insert: (row: SecretInsert, sealed: Omit<SealedVersion, "secretId" | "version" | "createdBy" | "at">) =>
        Effect.gen(function*() {
          const inserted = yield* sql<{ id: string }>`INSERT INTO secrets
              (id, workspace_id, name, description, version, masked_hint, created_by, updated_by, created_at, updated_at)
            VALUES (${row.id}, ${row.workspaceId}, ${row.name}, ${row.description}, 1, ${row.maskedHint},
              ${json(row.createdBy)}::jsonb, ${json(row.createdBy)}::jsonb, ${row.at}, ${row.at})
            ON CONFLICT (workspace_id, name) DO NOTHING RETURNING id`
          if (inserted.length === 0) return false
          yield* writeVersion({ ...sealed, secretId: row.id, version: 1, createdBy: row.createdBy, at: row.at })
          return true
        }).pipe(Effect.orDie, Effect.withSpan("SecretRepo.insert")),
      /**
       * Take the next version number of a secret, when it is at `expected` (or
       * any version when none is given), locking its row until the transaction
       * ends; empty when no such secret or a stale `expected`.
       */
      nextVersion: (
        workspaceId: WorkspaceId,
        id: SecretId,
        expected: number | undefined,
        change: { readonly maskedHint: string | null; readonly updatedBy: Actor; readonly at: Date }
      ) =>
        sql`UPDATE secrets SET version = version + 1, masked_hint = ${change.maskedHint},
            updated_by = ${json(change.updatedBy)}::jsonb, updated_at = ${change.at}
          WHERE workspace_id = ${workspaceId} AND id = ${id}
            ${expected === undefined ? sql`` : sql`AND version = ${expected}`}
          RETURNING ${select}`.pipe(
          Effect.flatMap(decodeRow),
          Effect.map((rows) => rows[0]),
          Effect.orDie,
          Effect.withSpan("SecretRepo.nextVersion")
        ),
      /** Store a version's sealed value and drop the versions before it. */
      replaceVersion: (row: SealedVersion) =>
        Effect.zipRight(
          writeVersion(row),
          sql`DELETE FROM secret_versions WHERE secret_id = ${row.secretId} AND version < ${row.version}`
        ).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("SecretRepo.replaceVersion")),
      delete: (workspaceId: WorkspaceId, id: SecretId) =>
        sql`DELETE FROM secrets WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("SecretRepo.delete")
        ),
      /**
       * Count a use of a secret by name and lock its row until the transaction
       * ends (so its version stays the current one while it is read); empty
       * when the workspace has no such secret.
       */
      recordUse: (workspaceId: WorkspaceId, name: SecretName, usedBy: ResourceRef, at: Date) =>
        sql<{ id: SecretId; version: number }>`UPDATE secrets
          SET use_count = use_count + 1, last_used_at = ${at}, last_used_by = ${json(usedBy)}::jsonb
          WHERE workspace_id = ${workspaceId} AND name = ${name} RETURNING id, version`.pipe(
          Effect.map((rows) => rows[0]),
          Effect.orDie,
          Effect.withSpan("SecretRepo.recordUse")
        ),
      version: (secretId: SecretId, version: number) =>
        versionOf({ secretId, version }).pipe(Effect.orDie, Effect.withSpan("SecretRepo.version")),
      /**
       * Which of these names the workspace holds, their rows share-locked until
       * the transaction ends: a resource recording a reference to a secret and
       * a delete of that secret (which locks it for update) take turns, so the
       * delete sees the reference or the reference sees the secret gone.
       */
      existing: (workspaceId: WorkspaceId, names: ReadonlyArray<string>) =>
        (names.length === 0
          ? Effect.succeed<ReadonlyArray<{ name: string }>>([])
          : sql<{ name: string }>`SELECT name FROM secrets
              WHERE workspace_id = ${workspaceId} AND ${sql.in("name", names)} FOR SHARE`).pipe(
            Effect.map((rows) => new Set(rows.map((row) => row.name))),
            Effect.orDie,
            Effect.withSpan("SecretRepo.existing")
          ),
      /** How many versions each master key wraps. */
      masterKeyCounts: () =>
        sql<{ masterKeyId: string; versions: number }>`SELECT master_key_id, count(*)::int AS versions
          FROM secret_versions GROUP BY master_key_id ORDER BY master_key_id`.pipe(
          Effect.orDie,
          Effect.withSpan("SecretRepo.masterKeyCounts")
        ),
      /** Up to `limit` versions not wrapped by `masterKeyId`, after `after` in (secret id, version) order. */
      wrappedByOthers: (
        masterKeyId: string,
        after: { readonly secretId: string; readonly version: number } | undefined,
        limit: number
      ) =>
        Effect.flatMap(
          sql`SELECT secret_id, version, ciphertext, wrapped_key, master_key_id FROM secret_versions
            WHERE master_key_id <> ${masterKeyId}
              ${after === undefined ? sql`` : sql`AND (secret_id, version) > (${after.secretId}, ${after.version})`}
            ORDER BY secret_id, version LIMIT ${limit}`,
          decodeVersions
        ).pipe(Effect.orDie, Effect.withSpan("SecretRepo.wrappedByOthers")),
      /**
       * Replace a version's wrapped key, only while it is still wrapped by
       * `fromKeyId` (a concurrent rotation or write is never overwritten);
       * false when it no longer was.
       */
      rewrap: (
        row: { readonly secretId: SecretId; readonly version: number },
        fromKeyId: string,
        wrapped: { readonly wrappedKey: Uint8Array; readonly masterKeyId: string }
      ) =>
        sql<{ version: number }>`UPDATE secret_versions
          SET wrapped_key = ${bytes(wrapped.wrappedKey)}, master_key_id = ${wrapped.masterKeyId}
          WHERE secret_id = ${row.secretId} AND version = ${row.version} AND master_key_id = ${fromKeyId}
          RETURNING version`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("SecretRepo.rewrap")
        ),
      /** How an actor reads in the audit log: a user's name, a token's name, or Parley. */
      actorDisplay: (actor: AuditActor) =>
        (actor.kind === "system"
          ? Effect.succeed<ReadonlyArray<{ display: string }>>([])
          : actor.kind === "user"
          ? sql<{ display: string }>`SELECT display_name AS display FROM users WHERE id = ${actor.userId}`
          : sql<{ display: string }>`SELECT name AS display FROM api_tokens WHERE id = ${actor.tokenId}`).pipe(
            Effect.map((rows) => rows[0]?.display ?? "Parley"),
            Effect.orDie,
            Effect.withSpan("SecretRepo.actorDisplay")
          )
    } as const
  })
}) {}
