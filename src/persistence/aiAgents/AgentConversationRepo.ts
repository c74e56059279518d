/**
 * The stored side of AI-agent conversations: the conversation row and its
 * ownership (`owner_epoch`, as `runtime_sessions`), the turns (one row per
 * idempotency key, with the request and limits the turn runs under), the
 * durable steps of a running turn and the transcript written when it ends.
 * Every write an owner makes is fenced: it happens only while the owner's
 * epoch still owns the conversation, so a node that lost the conversation
 * (frozen, partitioned) cannot write over its new owner.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { AiAgentConversationId, AiAgentId } from "../../domain/aiAgents/Ids.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { JsonValue } from "../../domain/Json.js"

/** A conversation as the entity reads it. */
export interface ConversationRow {
  readonly id: string
  readonly workspaceId: string
  readonly agentId: string
  readonly channel: string
  readonly status: "active" | "handed-off" | "ended"
  readonly endUserId: string | null
  readonly title: string
  readonly turns: number
  readonly inputTokens: number
  readonly outputTokens: number
  readonly ownerEpoch: number
}

/** A stored turn. */
export interface TurnRow {
  readonly turn: number
  readonly idempotencyKey: string
  readonly bodyHash: string
  readonly request: unknown
  readonly status: "running" | "done" | "failed"
  readonly result: unknown
  readonly attempts: number
}

/** A stored step, its data as written. */
export interface StepRow {
  readonly step: number
  readonly kind: "model" | "tool"
  readonly data: unknown
}

/** A transcript message to store. */
export interface MessageWrite {
  readonly id: string
  readonly role: "user" | "assistant" | "tool"
  readonly content: string
  /** A guardrail rewrote the content (the user's message at input, the reply at output). */
  readonly redacted: boolean
  /** The guardrail hits recorded on this message (`TurnGuardrailEvent`s). */
  readonly guardrailEvents: ReadonlyArray<unknown>
  readonly toolCall: JsonValue | null
  readonly usage: JsonValue | null
  readonly latencyMs: number | null
  readonly model: JsonValue | null
  readonly version: number | null
  readonly finishReason: string | null
  readonly handoff: JsonValue | null
  readonly traceId: string
}

/** A message of earlier turns, for the prompt. */
export interface HistoryRow {
  readonly role: "user" | "assistant" | "tool"
  readonly content: string
  readonly toolCall: unknown
}

/** What the turn's end writes, in one fenced transaction. */
export interface TurnFinish {
  readonly conversationId: string
  readonly turn: number
  readonly epoch: number
  readonly result: JsonValue
  readonly workspaceId: string
  readonly messages: ReadonlyArray<MessageWrite>
  readonly inputTokens: number
  readonly outputTokens: number
  readonly costUsd: number | null
  readonly status: "active" | "handed-off" | "ended"
  readonly title: string
}

const json = (value: unknown) => JSON.stringify(value)

/** A message as `jsonb_to_recordset` reads it: the table's column names. */
const messageRecord = (message: MessageWrite, seq: number) => ({
  id: message.id,
  seq,
  role: message.role,
  content: message.content,
  redacted: message.redacted,
  guardrail_events: message.guardrailEvents,
  tool_call: message.toolCall,
  usage: message.usage,
  latency_ms: message.latencyMs,
  model: message.model,
  version: message.version,
  finish_reason: message.finishReason,
  handoff: message.handoff,
  trace_id: message.traceId
})

export class AgentConversationRepo extends Effect.Service<AgentConversationRepo>()(
  "parley/persistence/AgentConversationRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const conversationColumns = sql`id, workspace_id, agent_id, channel, status, end_user_id, title, turns,
        input_tokens::float8 AS input_tokens, output_tokens::float8 AS output_tokens, owner_epoch`

      return {
        /**
         * Start a conversation; one that exists already under this id (a retry
         * of the request that started it) is kept as it is.
         */
        create: (row: {
          readonly id: AiAgentConversationId
          readonly workspaceId: WorkspaceId
          readonly agentId: AiAgentId
          readonly channel: string
          readonly version: number | null
          readonly endUserId: string | null
          readonly metadata: Readonly<Record<string, string>>
          readonly startedBy: JsonValue | null
        }) =>
          sql`INSERT INTO ai_agent_conversations (id, workspace_id, agent_id, channel, status, version, end_user_id,
                metadata, started_by, created_at, updated_at)
              VALUES (${row.id}, ${row.workspaceId}, ${row.agentId}, ${row.channel}, 'active', ${row.version},
                ${row.endUserId}, ${json(row.metadata)}::jsonb, ${
            row.startedBy === null ? null : json(row.startedBy)
          }::jsonb,
                now(), now())
              ON CONFLICT (id) DO NOTHING`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AgentConversationRepo.create")
          ),

        /**
         * Merge `metadata` into the conversation's (its keys win), unless the
         * result would hold more than `maxKeys` keys: then nothing changes and
         * the answer is false.
         */
        mergeMetadata: (id: string, metadata: Readonly<Record<string, string>>, maxKeys: number) =>
          Effect.map(
            sql<{ id: string }>`UPDATE ai_agent_conversations SET metadata = metadata || ${json(metadata)}::jsonb,
                updated_at = now()
              WHERE id = ${id}
                AND (SELECT count(*) FROM jsonb_object_keys(metadata || ${json(metadata)}::jsonb)) <= ${maxKeys}
              RETURNING id`,
            (rows) => rows.length > 0
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.mergeMetadata")),

        /** A conversation of this workspace and agent, if there is one. */
        find: (workspaceId: string, agentId: string, id: string) =>
          Effect.map(
            sql<ConversationRow>`SELECT ${conversationColumns} FROM ai_agent_conversations
              WHERE id = ${id} AND workspace_id = ${workspaceId} AND agent_id = ${agentId}`,
            (rows) => Option.fromNullable(rows[0])
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.find")),

        /** Take ownership: the next owner epoch, recorded; none when there is no such conversation. */
        claim: (id: string, runner: string) =>
          Effect.map(
            sql<ConversationRow>`UPDATE ai_agent_conversations SET owner_epoch = owner_epoch + 1,
                owner_runner = ${runner} WHERE id = ${id} RETURNING ${conversationColumns}`,
            (rows) => Option.fromNullable(rows[0])
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.claim")),

        /**
         * The conversation as it is now and the turn stored under `key`, if
         * any: what a turn message reads first, in one round trip.
         */
        currentWithTurn: (id: string, key: string) =>
          Effect.map(
            sql<
              ConversationRow & {
                readonly priorTurn: number | null
                readonly priorBodyHash: string | null
                readonly priorRequest: unknown
                readonly priorStatus: TurnRow["status"] | null
                readonly priorResult: unknown
                readonly priorAttempts: number | null
              }
            >`SELECT c.id, c.workspace_id, c.agent_id, c.channel, c.status, c.end_user_id, c.title, c.turns,
                c.input_tokens::float8 AS input_tokens, c.output_tokens::float8 AS output_tokens, c.owner_epoch,
                t.turn AS prior_turn, t.body_hash AS prior_body_hash, t.request AS prior_request,
                t.status AS prior_status, t.result AS prior_result, t.attempts AS prior_attempts
              FROM ai_agent_conversations c
              LEFT JOIN ai_agent_turns t ON t.conversation_id = c.id AND t.idempotency_key = ${key}
              WHERE c.id = ${id}`,
            (rows) =>
              Option.map(Option.fromNullable(rows[0]), (row) => {
                const {
                  priorAttempts,
                  priorBodyHash,
                  priorRequest,
                  priorResult,
                  priorStatus,
                  priorTurn,
                  ...conversation
                } = row
                const prior: Option.Option<TurnRow> = priorTurn === null
                  ? Option.none()
                  : Option.some({
                    turn: priorTurn,
                    idempotencyKey: key,
                    bodyHash: priorBodyHash!,
                    request: priorRequest,
                    status: priorStatus!,
                    result: priorResult,
                    attempts: priorAttempts!
                  })
                return { conversation: conversation as ConversationRow, prior }
              })
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.currentWithTurn")),

        /** The turn stored under `key`, if any. */
        turnByKey: (conversationId: string, key: string) =>
          Effect.map(
            sql<TurnRow>`SELECT turn, idempotency_key, body_hash, request, status, result, attempts
              FROM ai_agent_turns WHERE conversation_id = ${conversationId} AND idempotency_key = ${key}`,
            (rows) => Option.fromNullable(rows[0])
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.turnByKey")),

        /**
         * Accept a turn: the next turn number, status running, with its
         * request and its first attempt counted; fenced. None when this epoch
         * no longer owns the conversation.
         */
        startTurn: (start: {
          readonly conversationId: string
          readonly epoch: number
          readonly idempotencyKey: string
          readonly bodyHash: string
          readonly request: JsonValue
          readonly traceId: string
        }) =>
          Effect.map(
            sql<{ turn: number }>`INSERT INTO ai_agent_turns (conversation_id, turn, idempotency_key, body_hash,
                request, status, attempts, epoch, trace_id, started_at)
              SELECT c.id, COALESCE((SELECT max(t.turn) FROM ai_agent_turns t WHERE t.conversation_id = c.id), 0) + 1,
                ${start.idempotencyKey}, ${start.bodyHash}, ${json(start.request)}::jsonb, 'running', 1,
                ${start.epoch}, ${start.traceId}, now()
              FROM ai_agent_conversations c WHERE c.id = ${start.conversationId} AND c.owner_epoch = ${start.epoch}
              RETURNING turn`,
            (rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.turn)
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.startTurn")),

        /** Count an attempt of a running turn (fenced): the attempts so far, or none when fenced out. */
        countAttempt: (conversationId: string, turn: number, epoch: number) =>
          Effect.map(
            sql<{ attempts: number }>`UPDATE ai_agent_turns t SET attempts = t.attempts + 1, epoch = ${epoch}
              FROM ai_agent_conversations c
              WHERE t.conversation_id = ${conversationId} AND t.turn = ${turn} AND t.status = 'running'
                AND c.id = t.conversation_id AND c.owner_epoch = ${epoch}
              RETURNING t.attempts`,
            (rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.attempts)
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.countAttempt")),

        /** The stored steps of a turn, in index order. */
        steps: (conversationId: string, turn: number) =>
          sql<StepRow>`SELECT step, kind, data FROM ai_agent_steps
            WHERE conversation_id = ${conversationId} AND turn = ${turn} ORDER BY step`.pipe(
            Effect.orDie,
            Effect.withSpan("AgentConversationRepo.steps")
          ),

        /** The stored steps of a turn after step `after`, in index order, with the epoch that wrote each (for streams). */
        stepsAfter: (conversationId: string, turn: number, after: number) =>
          sql<StepRow & { readonly epoch: number }>`SELECT step, kind, data, epoch FROM ai_agent_steps
            WHERE conversation_id = ${conversationId} AND turn = ${turn} AND step > ${after} ORDER BY step`.pipe(
            Effect.orDie,
            Effect.withSpan("AgentConversationRepo.stepsAfter")
          ),

        /**
         * Store one step, at most once (its primary key) and only while
         * `epoch` owns the conversation: false when it was not stored (another
         * owner, or the step is already there).
         */
        insertStep: (step: {
          readonly conversationId: string
          readonly turn: number
          readonly step: number
          readonly kind: "model" | "tool"
          readonly data: JsonValue
          readonly epoch: number
        }) =>
          Effect.map(
            sql`INSERT INTO ai_agent_steps (conversation_id, turn, step, kind, data, epoch)
              SELECT ${step.conversationId}, ${step.turn}, ${step.step}, ${step.kind}, ${json(step.data)}::jsonb,
                ${step.epoch}
              FROM ai_agent_conversations c WHERE c.id = ${step.conversationId} AND c.owner_epoch = ${step.epoch}
              ON CONFLICT (conversation_id, turn, step) DO NOTHING
              RETURNING step`,
            (rows) => rows.length === 1
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.insertStep")),

        /** Record a running turn as failed, its result the failure; fenced (false when fenced out). */
        failTurn: (conversationId: string, turn: number, epoch: number, result: JsonValue) =>
          Effect.map(
            sql`UPDATE ai_agent_turns t SET status = 'failed', result = ${json(result)}::jsonb,
                finished_at = now()
              FROM ai_agent_conversations c
              WHERE t.conversation_id = ${conversationId} AND t.turn = ${turn} AND t.status = 'running'
                AND c.id = t.conversation_id AND c.owner_epoch = ${epoch}
              RETURNING t.turn`,
            (rows) => rows.length === 1
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.failTurn")),

        /**
         * The messages of the conversation's finished turns, the last `limit`
         * of them, oldest first.
         */
        history: (conversationId: string, limit: number) =>
          Effect.map(
            sql<HistoryRow>`SELECT role, content, tool_call FROM (
                SELECT m.role, m.content, m.tool_call, m.turn, m.seq FROM ai_agent_messages m
                WHERE m.conversation_id = ${conversationId}
                ORDER BY m.turn DESC, m.seq DESC LIMIT ${limit}
              ) last ORDER BY turn, seq`,
            (rows) => rows
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.history")),

        /** The transcript of a conversation, oldest first. */
        messages: (conversationId: string) =>
          sql<{ turn: number; seq: number; role: string; content: string; toolCall: unknown }>`
            SELECT turn, seq, role, content, tool_call FROM ai_agent_messages
            WHERE conversation_id = ${conversationId} ORDER BY turn, seq`.pipe(
            Effect.orDie,
            Effect.withSpan("AgentConversationRepo.messages")
          ),

        /**
         * End a turn: its result (status done), its transcript messages and the
         * conversation's counters, in one statement (so one transaction) that
         * writes only while `epoch` owns the conversation and the turn is
         * still running; false otherwise, nothing written. The conversation's
         * row is locked first (`FOR UPDATE`): a new owner's claim waits for it,
         * or, committed first, leaves this statement nothing to write.
         */
        finishTurn: (finish: TurnFinish) =>
          Effect.map(
            sql<{ done: number }>`WITH owned AS (
                SELECT id FROM ai_agent_conversations
                WHERE id = ${finish.conversationId} AND owner_epoch = ${finish.epoch}
                FOR UPDATE
              ), done AS (
                UPDATE ai_agent_turns t SET status = 'done', result = ${json(finish.result)}::jsonb,
                  finished_at = now()
                FROM owned
                WHERE t.conversation_id = owned.id AND t.turn = ${finish.turn} AND t.status = 'running'
                RETURNING t.turn
              ), messages AS (
                INSERT INTO ai_agent_messages (id, workspace_id, conversation_id, turn, seq, role, content,
                  redacted, guardrail_events, tool_call, usage, latency_ms, model, version, finish_reason, handoff,
                  trace_id, created_at)
                SELECT m.id, ${finish.workspaceId}, ${finish.conversationId}, ${finish.turn}, m.seq, m.role,
                  m.content, m.redacted, m.guardrail_events, m.tool_call, m.usage, m.latency_ms, m.model, m.version,
                  m.finish_reason, m.handoff, m.trace_id, clock_timestamp()
                FROM jsonb_to_recordset(${json(finish.messages.map(messageRecord))}::jsonb)
                  AS m(id uuid, seq integer, role text, content text, redacted boolean, guardrail_events jsonb,
                    tool_call jsonb, usage jsonb,
                    latency_ms integer, model jsonb, version integer, finish_reason text, handoff jsonb, trace_id text)
                WHERE EXISTS (SELECT 1 FROM done)
                ORDER BY m.seq
              ), counters AS (
                UPDATE ai_agent_conversations SET turns = turns + 1,
                  input_tokens = input_tokens + ${finish.inputTokens},
                  output_tokens = output_tokens + ${finish.outputTokens},
                  cost_usd = CASE WHEN ${finish.costUsd}::float8 IS NULL THEN cost_usd
                    ELSE COALESCE(cost_usd, 0) + ${finish.costUsd}::float8 END,
                  status = ${finish.status},
                  title = CASE WHEN title = '' THEN ${finish.title} ELSE title END,
                  updated_at = now()
                WHERE id = ${finish.conversationId} AND EXISTS (SELECT 1 FROM done)
              )
              SELECT count(*)::int AS done FROM done`,
            (rows) => rows[0]?.done === 1
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.finishTurn")),

        /** A published version's snapshot, if the agent has that version. */
        versionSnapshot: (workspaceId: string, agentId: string, number: number) =>
          Effect.map(
            sql<{ snapshot: unknown }>`SELECT snapshot FROM ai_agent_versions
              WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId} AND number = ${number}`,
            (rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.snapshot)
          ).pipe(Effect.orDie, Effect.withSpan("AgentConversationRepo.versionSnapshot"))
      } as const
    })
  }
) {}
