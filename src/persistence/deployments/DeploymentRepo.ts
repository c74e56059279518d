import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AssistantId } from "../../domain/assistants/Assistant.js"
import { IntentName } from "../../domain/assistants/Intent.js"
import { ParleyDocument } from "../../domain/assistants/ParleyDocument.js"
import { DeploymentId, DeploymentStatus } from "../../domain/deployments/Deployment.js"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { Revision } from "../../domain/Revision.js"
import { AllowedOrigins } from "../../domain/WebOrigin.js"

/** A deployment as its routes show it (everything but the token's hash and the snapshot). */
export const DeploymentRow = Schema.Struct({
  id: DeploymentId,
  workspaceId: WorkspaceId,
  agentId: AssistantId,
  name: Schema.String,
  status: DeploymentStatus,
  revision: Revision,
  nluModelVersion: Schema.String,
  intents: Schema.parseJson(Schema.Array(IntentName)),
  allowedOrigins: Schema.parseJson(AllowedOrigins),
  rateLimitPerMinute: Schema.Number,
  tokenHint: Schema.String,
  createdBy: Schema.parseJson(Actor),
  createdAt: Schema.DateTimeUtcFromDate,
  revokedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
  revokedBy: Schema.NullOr(Schema.parseJson(Actor))
})
export type DeploymentRow = typeof DeploymentRow.Type

/** What the embed authentication needs of the deployment a token names. */
export const TokenGrantRow = Schema.Struct({
  id: DeploymentId,
  workspaceId: WorkspaceId,
  agentId: AssistantId,
  status: DeploymentStatus,
  allowedOrigins: Schema.parseJson(AllowedOrigins),
  rateLimitPerMinute: Schema.Number
})
export type TokenGrantRow = typeof TokenGrantRow.Type

/** A deployment's snapshot, as the runtime runs it. */
export const SnapshotRow = Schema.Struct({
  id: DeploymentId,
  revision: Revision,
  snapshot: Schema.parseJson(ParleyDocument)
})
export type SnapshotRow = typeof SnapshotRow.Type

/** A new `deployments` row. */
export interface DeploymentInsert {
  readonly id: DeploymentId
  readonly workspaceId: WorkspaceId
  readonly agentId: AssistantId
  readonly name: string
  readonly revision: number
  readonly nluModelVersion: string
  readonly intents: ReadonlyArray<string>
  readonly allowedOrigins: ReadonlyArray<string>
  readonly rateLimitPerMinute: number
  readonly tokenHash: string
  readonly tokenHint: string
  readonly snapshot: typeof ParleyDocument.Encoded
  readonly createdBy: Actor
  readonly createdAt: Date
}

/** Which deployments a list shows. */
export interface DeploymentFilter {
  readonly agentId?: AssistantId | undefined
  readonly status?: DeploymentStatus | undefined
}

const json = (value: unknown) => JSON.stringify(value)

/* JSON columns are read as text: the client would rename snake_case keys inside them. */
const columns = `id, workspace_id, agent_id, name, status, revision, nlu_model_version, intents::text AS intents,
  allowed_origins::text AS allowed_origins, rate_limit_per_minute, token_hint, created_by::text AS created_by,
  created_at, revoked_at, revoked_by::text AS revoked_by`

const Key = Schema.Struct({ workspaceId: WorkspaceId, id: DeploymentId })

/** Deployments: their snapshots, their tokens' hashes and their status. */
export class DeploymentRepo extends Effect.Service<DeploymentRepo>()("parley/persistence/DeploymentRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const filterOf = (workspaceId: WorkspaceId, filter: DeploymentFilter) =>
      sql.and([
        sql`workspace_id = ${workspaceId}`,
        ...(filter.agentId === undefined ? [] : [sql`agent_id = ${filter.agentId}`]),
        ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
      ])

    const byId = SqlSchema.findOne({
      Request: Key,
      Result: DeploymentRow,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${sql.literal(columns)} FROM deployments WHERE workspace_id = ${workspaceId} AND id = ${id}`
    })

    const revoke = (workspaceId: WorkspaceId, id: DeploymentId, by: Actor, at: Date) =>
      SqlSchema.findOne({
        Request: Key,
        Result: DeploymentRow,
        execute: (key) =>
          sql`UPDATE deployments SET status = 'revoked', revoked_at = ${at}, revoked_by = ${json(by)}::jsonb
              WHERE workspace_id = ${key.workspaceId} AND id = ${key.id} AND status = 'live'
              RETURNING ${sql.literal(columns)}`
      })({ workspaceId, id })

    const byTokenHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: TokenGrantRow,
      execute: (hash) =>
        sql`SELECT id, workspace_id, agent_id, status, allowed_origins::text AS allowed_origins, rate_limit_per_minute
            FROM deployments WHERE token_hash = ${hash}`
    })

    const snapshot = SqlSchema.findOne({
      Request: DeploymentId,
      Result: SnapshotRow,
      execute: (id) => sql`SELECT id, revision, snapshot::text AS snapshot FROM deployments WHERE id = ${id}`
    })

    return {
      insert: (row: DeploymentInsert) =>
        sql`INSERT INTO deployments
              (id, workspace_id, agent_id, name, status, revision, nlu_model_version, intents, allowed_origins,
               rate_limit_per_minute, token_hash, token_hint, snapshot, created_by, created_at)
            VALUES (${row.id}, ${row.workspaceId}, ${row.agentId}, ${row.name}, 'live', ${row.revision},
              ${row.nluModelVersion}, ${json(row.intents)}::jsonb, ${json(row.allowedOrigins)}::jsonb,
              ${row.rateLimitPerMinute}, ${row.tokenHash}, ${row.tokenHint}, ${json(row.snapshot)}::jsonb,
              ${json(row.createdBy)}::jsonb, ${row.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("DeploymentRepo.insert")
        ),
      findById: (workspaceId: WorkspaceId, id: DeploymentId) =>
        byId({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("DeploymentRepo.findById")),
      /** One page of the workspace's deployments matching `filter`, newest first, and how many match. */
      page: (workspaceId: WorkspaceId, filter: DeploymentFilter, limit: number, offset: number) =>
        Effect.all([
          sql`SELECT ${sql.literal(columns)} FROM deployments WHERE ${filterOf(workspaceId, filter)}
              ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(
            Effect.flatMap(Schema.decodeUnknown(Schema.Array(DeploymentRow)))
          ),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM deployments
              WHERE ${filterOf(workspaceId, filter)}`.pipe(Effect.map(([row]) => row?.total ?? 0))
        ]).pipe(Effect.orDie, Effect.withSpan("DeploymentRepo.page")),
      /** Marks a live deployment revoked; `None` when it is not live (already revoked, or missing). */
      revoke: (workspaceId: WorkspaceId, id: DeploymentId, by: Actor, at: Date) =>
        revoke(workspaceId, id, by, at).pipe(Effect.orDie, Effect.withSpan("DeploymentRepo.revoke")),
      /** The deployment whose token has this hash, live or revoked. */
      byTokenHash: (hash: string) =>
        byTokenHash(hash).pipe(Effect.orDie, Effect.withSpan("DeploymentRepo.byTokenHash")),
      /** A deployment's snapshot (immutable: it never changes once written). */
      snapshot: (id: DeploymentId) =>
        snapshot(id).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.dieMessage(`Deployment ${id} has no snapshot`),
            onSome: Effect.succeed
          })),
          Effect.orDie,
          Effect.withSpan("DeploymentRepo.snapshot")
        )
    } as const
  })
}) {}
