/**
 * An AI agent's remembered facts (`ai_agent_memory`). Every read sees only
 * live facts (neither past `expires_at` nor past their retention since the
 * last write); `purgeExpired` deletes the others lazily. Writes to one scope
 * (the agent's, or one end user's) take turns on an advisory lock, so the
 * scope's bound holds under concurrent writers.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect, Schema } from "effect"
import { AiAgentConversationId, AiAgentId, AiAgentMemoryId, EndUserId } from "../../domain/aiAgents/Ids.js"
import {
  AiAgentMemory,
  AiAgentMemoryRetention,
  AiAgentMemoryScope,
  AiAgentMemorySource
} from "../../domain/aiAgents/Memory.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"

/** An `ai_agent_memory` row. */
const MemoryRow = Schema.Struct({
  id: AiAgentMemoryId,
  workspaceId: WorkspaceId,
  agentId: AiAgentId,
  scope: AiAgentMemoryScope,
  endUserId: Schema.NullOr(EndUserId),
  key: Schema.NullOr(Schema.String),
  content: Schema.String,
  source: AiAgentMemorySource,
  conversationId: Schema.NullOr(AiAgentConversationId),
  retention: Schema.parseJson(AiAgentMemoryRetention),
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  useCount: Schema.Number,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
type MemoryRow = typeof MemoryRow.Type

/** A fact with its use, as the runtime's selection needs it. */
export interface StoredFact {
  readonly fact: AiAgentMemory
  readonly useCount: number
  readonly lastUsedAt: Date | null
}

const utc = (date: Date) => DateTime.unsafeMake(date) as DateTime.Utc

const toStored = (row: MemoryRow): StoredFact => ({
  fact: AiAgentMemory.make({
    id: row.id,
    workspaceId: row.workspaceId,
    agentId: row.agentId,
    scope: row.scope,
    endUserId: row.endUserId,
    key: row.key,
    content: row.content,
    source: row.source,
    conversationId: row.conversationId,
    retention: row.retention,
    expiresAt: row.expiresAt === null ? null : utc(row.expiresAt),
    createdAt: utc(row.createdAt),
    updatedAt: utc(row.updatedAt)
  }),
  useCount: row.useCount,
  lastUsedAt: row.lastUsedAt
})

/** The scope a fact lives in: the agent's, or one end user's. */
export interface MemoryScopeRef {
  readonly agentId: AiAgentId
  readonly scope: AiAgentMemoryScope
  readonly endUserId: EndUserId | null
}

/** What a write stores of a fact. */
export interface FactWrite {
  readonly key: string | null
  readonly content: string
  readonly retention: AiAgentMemoryRetention
  readonly expiresAt: Date | null
  readonly at: Date
}

/** What an insert adds to a write. */
export interface FactInsert extends FactWrite {
  readonly id: AiAgentMemoryId
  readonly workspaceId: WorkspaceId
  readonly source: AiAgentMemorySource
  readonly conversationId: AiAgentConversationId | null
}

/** The list's filters. */
export interface MemoryFilter {
  readonly scope?: AiAgentMemoryScope | undefined
  readonly endUserId?: EndUserId | undefined
  readonly source?: AiAgentMemorySource | undefined
  readonly key?: string | undefined
}

/* JSON columns are read as text: the client would rename snake_case keys inside them. */
const columns = `id, workspace_id, agent_id, scope, end_user_id, key, content, source, conversation_id,
  retention::text AS retention, expires_at, use_count, last_used_at, created_at, updated_at`

const KEY_INDEX = "ai_agent_memory_key"

export class AiAgentMemoryRepo extends Effect.Service<AiAgentMemoryRepo>()("parley/persistence/AiAgentMemoryRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const rows = Schema.decodeUnknown(Schema.Array(MemoryRow))
    const stored = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      Effect.map(Effect.flatMap(query, rows), (found) => found.map(toStored))
    const first = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      Effect.map(stored(query), (found) => found[0])

    /** A fact is live at `now`: neither past its expiry nor past its retention since its last write. */
    const live = (now: Date) =>
      sql`(expires_at IS NULL OR expires_at > ${now})
        AND (retention->>'kind' <> 'days' OR updated_at + (retention->>'days')::int * interval '1 day' > ${now})`
    const inScope = (ref: MemoryScopeRef) =>
      sql`agent_id = ${ref.agentId} AND scope = ${ref.scope}
        AND ${ref.endUserId === null ? sql`end_user_id IS NULL` : sql`end_user_id = ${ref.endUserId}`}`
    /** A unique-key violation is `undefined`: another fact of the scope has the key. */
    const keyTaken = <A, E, R>(effect: Effect.Effect<A | undefined, E, R>) =>
      Effect.catchIf(
        effect,
        (error) => String((error as { cause?: unknown }).cause).includes(KEY_INDEX),
        () => Effect.succeed(undefined)
      )

    return {
      /** Delete the agent's facts that are no longer live. */
      purgeExpired: (agentId: AiAgentId, now: Date) =>
        sql`DELETE FROM ai_agent_memory WHERE agent_id = ${agentId} AND NOT (${live(now)})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AiAgentMemoryRepo.purgeExpired")
        ),
      /** A page of the agent's live facts, newest first. */
      page: (agentId: AiAgentId, filter: MemoryFilter, limit: number, offset: number, now: Date) => {
        const where = sql.and([
          sql`agent_id = ${agentId}`,
          live(now),
          ...(filter.scope === undefined ? [] : [sql`scope = ${filter.scope}`]),
          ...(filter.endUserId === undefined ? [] : [sql`end_user_id = ${filter.endUserId}`]),
          ...(filter.source === undefined ? [] : [sql`source = ${filter.source}`]),
          ...(filter.key === undefined ? [] : [sql`key = ${filter.key}`])
        ])
        return Effect.all([
          stored(sql`SELECT ${select} FROM ai_agent_memory WHERE ${where}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_memory WHERE ${where}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items: items.map((item) => item.fact), total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("AiAgentMemoryRepo.page")
        )
      },
      /** The live fact, locked until the transaction ends when `lock`. */
      find: (agentId: AiAgentId, id: AiAgentMemoryId, now: Date, lock = false) =>
        first(sql`SELECT ${select} FROM ai_agent_memory WHERE agent_id = ${agentId} AND id = ${id} AND ${live(now)}
          ${lock ? sql`FOR UPDATE` : sql``}`).pipe(Effect.orDie, Effect.withSpan("AiAgentMemoryRepo.find")),
      /** The live fact of the scope with this key. */
      findByKey: (ref: MemoryScopeRef, key: string, now: Date) =>
        first(sql`SELECT ${select} FROM ai_agent_memory WHERE ${inScope(ref)} AND key = ${key} AND ${live(now)}`)
          .pipe(Effect.orDie, Effect.withSpan("AiAgentMemoryRepo.findByKey")),
      /** The live facts the agent's prompt may draw on: its scope's and, given one, the end user's. */
      promptCandidates: (agentId: AiAgentId, endUserId: EndUserId | null, now: Date) =>
        stored(sql`SELECT ${select} FROM ai_agent_memory WHERE agent_id = ${agentId} AND ${live(now)}
          AND (scope = 'agent' ${
          endUserId === null ? sql`` : sql`OR (scope = 'end-user' AND end_user_id = ${endUserId})`
        })
          ORDER BY updated_at DESC`).pipe(Effect.orDie, Effect.withSpan("AiAgentMemoryRepo.promptCandidates")),
      /** Writes to the scope take turns until the transaction ends. */
      lockScope: (ref: MemoryScopeRef) =>
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ai-memory:${ref.agentId}:${ref.scope}:${
          ref.endUserId ?? ""
        }`}, 0))`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("AiAgentMemoryRepo.lockScope")),
      /** How many facts the scope holds. */
      count: (ref: MemoryScopeRef) =>
        sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_memory WHERE ${inScope(ref)}`.pipe(
          Effect.map(([count]) => count?.total ?? 0),
          Effect.orDie,
          Effect.withSpan("AiAgentMemoryRepo.count")
        ),
      /**
       * Delete up to `count` of the scope's `conversation` facts, the least
       * used and oldest first; answers how many went.
       */
      evict: (ref: MemoryScopeRef, count: number) =>
        sql<{ id: string }>`DELETE FROM ai_agent_memory WHERE id IN (
            SELECT id FROM ai_agent_memory WHERE ${inScope(ref)} AND source = 'conversation'
            ORDER BY use_count ASC, last_used_at ASC NULLS FIRST, updated_at ASC, id ASC
            LIMIT ${count})
          RETURNING id`.pipe(
          Effect.map((deleted) => deleted.length),
          Effect.orDie,
          Effect.withSpan("AiAgentMemoryRepo.evict")
        ),
      /** Insert a fact; undefined when another fact of the scope has its key. */
      insert: (ref: MemoryScopeRef, write: FactInsert) =>
        keyTaken(first(sql`INSERT INTO ai_agent_memory (id, workspace_id, agent_id, scope, end_user_id, key, content,
            source, conversation_id, retention, expires_at, created_at, updated_at)
          VALUES (${write.id}, ${write.workspaceId}, ${ref.agentId}, ${ref.scope}, ${ref.endUserId}, ${write.key},
            ${write.content}, ${write.source}, ${write.conversationId}, ${JSON.stringify(write.retention)}::jsonb,
            ${write.expiresAt}, ${write.at}, ${write.at})
          RETURNING ${select}`)).pipe(Effect.orDie, Effect.withSpan("AiAgentMemoryRepo.insert")),
      /**
       * Replace a fact's fields (and, given, its source and conversation);
       * undefined when another fact of the scope has the new key.
       */
      update: (
        agentId: AiAgentId,
        id: AiAgentMemoryId,
        write: FactWrite,
        origin?: { readonly source: AiAgentMemorySource; readonly conversationId: AiAgentConversationId | null }
      ) =>
        keyTaken(first(sql`UPDATE ai_agent_memory SET key = ${write.key}, content = ${write.content},
            retention = ${JSON.stringify(write.retention)}::jsonb, expires_at = ${write.expiresAt},
            updated_at = ${write.at}
            ${
          origin === undefined ? sql`` : sql`, source = ${origin.source}, conversation_id = ${origin.conversationId}`
        }
          WHERE agent_id = ${agentId} AND id = ${id}
          RETURNING ${select}`)).pipe(Effect.orDie, Effect.withSpan("AiAgentMemoryRepo.update")),
      /** Delete a live fact; whether there was one. */
      delete: (agentId: AiAgentId, id: AiAgentMemoryId, now: Date) =>
        sql<{ id: string }>`DELETE FROM ai_agent_memory WHERE agent_id = ${agentId} AND id = ${id} AND ${live(now)}
          RETURNING id`.pipe(
          Effect.map((deleted) => deleted.length === 1),
          Effect.orDie,
          Effect.withSpan("AiAgentMemoryRepo.delete")
        ),
      /** One more use of each fact, now. */
      markUsed: (ids: ReadonlyArray<AiAgentMemoryId>, now: Date) =>
        ids.length === 0
          ? Effect.void
          : sql`UPDATE ai_agent_memory SET use_count = use_count + 1, last_used_at = ${now}
              WHERE ${sql.in("id", ids)}`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AiAgentMemoryRepo.markUsed")
          )
    }
  })
}) {}
