import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Schema } from "effect"
import type { AuditQuery } from "../domain/identity/AuditRecord.js"
import { AuditRecord } from "../domain/identity/AuditRecord.js"
import type { WorkspaceId } from "../domain/identity/Ids.js"

/**
 * A stored record as the chain check reads it: loosely typed, so a record
 * changed behind the application's back is reported, not rejected.
 */
export const StoredAuditRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  sequence: Schema.Number,
  actor: Schema.Unknown,
  actorDisplay: Schema.String,
  action: Schema.String,
  resourceType: Schema.String,
  resourceId: Schema.NullOr(Schema.String),
  summary: Schema.Unknown,
  traceId: Schema.NullOr(Schema.String),
  ipAddress: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String),
  occurredAt: Schema.DateFromSelf,
  prevHash: Schema.NullOr(Schema.String),
  hash: Schema.String
})
export type StoredAuditRow = typeof StoredAuditRow.Type

/** A record to insert, its JSON columns already serialized. */
export interface AuditInsert {
  readonly id: string
  readonly workspaceId: WorkspaceId
  readonly sequence: number
  readonly actorJson: string
  readonly actorDisplay: string
  readonly action: string
  readonly resourceType: string
  readonly resourceId: string | null
  readonly summaryJson: string
  readonly traceId: string | null
  readonly ipAddress: string | null
  readonly userAgent: string | null
  readonly occurredAt: Date
  readonly prevHash: string | null
  readonly hash: string
}

const ChainHead = Schema.Struct({ sequence: Schema.NumberFromString, hash: Schema.String })

const ChainPage = Schema.Struct({ workspaceId: Schema.String, after: Schema.Number, limit: Schema.Number })

/** The `audit_log` table: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), one chain per workspace. */
export class AuditRepo extends Effect.Service<AuditRepo>()("parley/persistence/AuditRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // `sequence` is a bigint, which the driver reads as a string; every sequence fits a double exactly.
    const columns = sql`
      id, workspace_id, sequence::float8 AS sequence, actor, actor_display, action, resource_type, resource_id,
      summary, trace_id, ip_address, user_agent, occurred_at, prev_hash, hash`

    const where = (workspaceId: WorkspaceId, query: AuditQuery) =>
      sql.and([
        sql`workspace_id = ${workspaceId}`,
        ...(query.actor === undefined ? [] : query.actor === "system"
          ? [sql`actor->>'kind' = 'system'`]
          : [sql`(actor->>'userId' = ${query.actor} OR actor->>'tokenId' = ${query.actor})`]),
        ...(query.action === undefined ? [] : query.action.endsWith(".*")
          ? [sql`starts_with(action, ${query.action.slice(0, -1)})`]
          : [sql`action = ${query.action}`]),
        ...(query.resourceType === undefined ? [] : [sql`resource_type = ${query.resourceType}`]),
        ...(query.resourceId === undefined ? [] : [sql`resource_id = ${query.resourceId}`]),
        ...(query.from === undefined ? [] : [sql`occurred_at >= ${DateTime.toDateUtc(query.from)}`]),
        ...(query.to === undefined ? [] : [sql`occurred_at < ${DateTime.toDateUtc(query.to)}`])
      ])

    const head = SqlSchema.findOne({
      Request: Schema.String,
      Result: ChainHead,
      execute: (workspaceId) =>
        sql`SELECT sequence, hash FROM audit_log WHERE workspace_id = ${workspaceId} ORDER BY sequence DESC LIMIT 1`
    })

    const chain = SqlSchema.findAll({
      Request: ChainPage,
      Result: StoredAuditRow,
      execute: ({ after, limit, workspaceId }) =>
        sql`SELECT ${columns} FROM audit_log WHERE workspace_id = ${workspaceId} AND sequence > ${after}
            ORDER BY sequence LIMIT ${limit}`
    })

    const page = (workspaceId: WorkspaceId, query: AuditQuery, limit: number, offset: number) =>
      sql`SELECT ${columns} FROM audit_log WHERE ${where(workspaceId, query)}
          ORDER BY occurred_at DESC, sequence DESC LIMIT ${limit} OFFSET ${offset}`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(AuditRecord)))
      )

    const count = (workspaceId: WorkspaceId, query: AuditQuery) =>
      sql<{ total: number }>`SELECT count(*)::int AS total FROM audit_log WHERE ${where(workspaceId, query)}`.pipe(
        Effect.map(([row]) => row?.total ?? 0)
      )

    const insert = (record: AuditInsert) =>
      sql`
        INSERT INTO audit_log (id, workspace_id, sequence, actor, actor_display, action, resource_type, resource_id,
          summary, trace_id, ip_address, user_agent, occurred_at, prev_hash, hash)
        VALUES (${record.id}, ${record.workspaceId}, ${record.sequence}, ${record.actorJson}::jsonb,
          ${record.actorDisplay}, ${record.action}, ${record.resourceType}, ${record.resourceId},
          ${record.summaryJson}::jsonb, ${record.traceId}, ${record.ipAddress}, ${record.userAgent},
          ${record.occurredAt}, ${record.prevHash}, ${record.hash})`

    return {
      /**
       * Hold the workspace's chain until the transaction ends, so its appends
       * take turns; other workspaces' chains have locks of their own.
       */
      lockChain: (workspaceId: WorkspaceId) =>
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${`parley.audit_log:${workspaceId}`}, 0))`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AuditRepo.lockChain")
        ),
      /** The sequence and hash of the workspace's last record, if it has one. */
      head: (workspaceId: WorkspaceId) => head(workspaceId).pipe(Effect.orDie, Effect.withSpan("AuditRepo.head")),
      insert: (record: AuditInsert) =>
        insert(record).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("AuditRepo.insert")),
      /** Up to `limit` records after sequence `after`, in chain order. */
      chain: (workspaceId: WorkspaceId, after: number, limit: number) =>
        chain({ workspaceId, after, limit }).pipe(Effect.orDie, Effect.withSpan("AuditRepo.chain")),
      /** One page of the records that match `query`, newest first. */
      page: (workspaceId: WorkspaceId, query: AuditQuery, limit: number, offset: number) =>
        page(workspaceId, query, limit, offset).pipe(Effect.orDie, Effect.withSpan("AuditRepo.page")),
      /** How many records match `query`. */
      count: (workspaceId: WorkspaceId, query: AuditQuery) =>
        count(workspaceId, query).pipe(Effect.orDie, Effect.withSpan("AuditRepo.count"))
    } as const
  })
}) {}
