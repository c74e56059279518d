/**
 * Stored AI-agent conversations for the read routes' tests, written by SQL as
 * the runtime would write them: an agent (its settings at their defaults),
 * conversations with their counters, turns, and messages with realistic
 * values (tool calls as `TurnToolCall`, usage as `TokenUsage`, latency on
 * assistant messages). Messages are inserted last turn first, so a reader
 * that relied on insertion order would show them out of order.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { v7 as uuidv7 } from "uuid"

const DAY_MILLIS = 86_400_000

/** Midnight UTC of the day `daysAgo` days before today, plus `minutes`. */
export const dayStart = (daysAgo: number, minutes = 1): Date =>
  new Date(Math.floor(Date.now() / DAY_MILLIS) * DAY_MILLIS - daysAgo * DAY_MILLIS + minutes * 60_000)

/** `YYYY-MM-DD` of a date. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10)

export interface Usage {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly costUsd: number | null
}

export interface ToolCallRow {
  readonly name: string
  readonly status: "succeeded" | "failed" | "blocked"
  readonly durationMs: number
}

export interface GuardrailEventRow {
  readonly guardrailId: string
  readonly name: string
  readonly kind: "pii" | "jailbreak" | "blocked-topics"
  readonly stage: "input" | "output"
  readonly action: "block" | "redact" | "warn" | "handoff"
}

export interface TurnRows {
  readonly user: string
  readonly userEvents?: ReadonlyArray<GuardrailEventRow>
  readonly tools?: ReadonlyArray<ToolCallRow>
  readonly reply: string
  readonly usage: Usage
  readonly latencyMs: number
  readonly replyEvents?: ReadonlyArray<GuardrailEventRow>
  readonly handoff?: boolean
}

export interface ConversationRows {
  readonly workspaceId: string
  readonly agentId: string
  readonly channel?: string
  readonly status?: "active" | "handed-off" | "ended"
  readonly version?: number | null
  readonly endUserId?: string | null
  readonly createdAt: Date
  readonly turns: ReadonlyArray<TurnRows>
}

const json = (value: unknown) => JSON.stringify(value)
const traceId = () => uuidv7().replaceAll("-", "")

const event = (row: GuardrailEventRow) => ({ ...row, detail: `${row.kind} matched` })

/** An AI agent of the workspace, its settings at their defaults; its id and slug. */
export const insertAgent = (workspaceId: string, slug = `agent-${uuidv7().slice(-12)}`) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = uuidv7()
    yield* sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
        conversation, embed, created_at, updated_at)
      VALUES (${id}, ${workspaceId}, ${slug}, ${`Agent ${slug}`}, 'Answers questions about orders',
        'You help customers with their orders.', '{}'::jsonb, '{}'::jsonb, '{}'::jsonb, now(), now())`
    return { id, slug }
  }).pipe(Effect.orDie)

/** A published version of the agent whose publish gate ran evals (`evalScore`), created at `createdAt`. */
export const insertVersion = (
  workspaceId: string,
  agentId: string,
  number: number,
  evalScore: number | null,
  createdAt: Date
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO ai_agent_versions (workspace_id, agent_id, number, notes, revision, created_by, eval_score,
        eval_run_id, snapshot, created_at)
      VALUES (${workspaceId}, ${agentId}, ${number}, 'release', ${number}, '{"kind":"system"}'::jsonb, ${evalScore},
        ${uuidv7()}, '{}'::jsonb, ${createdAt})`
  }).pipe(Effect.orDie)

/** A conversation with its turns and messages, counters as the runtime keeps them; its id. */
export const insertConversation = (rows: ConversationRows) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = uuidv7()
    const usages = rows.turns.map((turn) => turn.usage)
    const known = usages.filter((usage) => usage.costUsd !== null)
    const lastAt = new Date(rows.createdAt.getTime() + rows.turns.length * 60_000)
    yield* sql`INSERT INTO ai_agent_conversations (id, workspace_id, agent_id, channel, status, version, end_user_id,
        title, metadata, turns, input_tokens, output_tokens, cost_usd, created_at, updated_at)
      VALUES (${id}, ${rows.workspaceId}, ${rows.agentId}, ${rows.channel ?? "web"}, ${rows.status ?? "active"},
        ${rows.version === undefined ? 1 : rows.version}, ${rows.endUserId ?? null},
        ${rows.turns[0]?.user.slice(0, 120) ?? ""}, ${json({ plan: "pro" })}::jsonb, ${rows.turns.length},
        ${usages.reduce((sum, usage) => sum + usage.inputTokens, 0)},
        ${usages.reduce((sum, usage) => sum + usage.outputTokens, 0)},
        ${known.length === 0 ? null : known.reduce((sum, usage) => sum + usage.costUsd!, 0)},
        ${rows.createdAt}, ${lastAt})`
    for (const [index, turn] of rows.turns.entries()) {
      const at = new Date(rows.createdAt.getTime() + index * 60_000)
      yield* sql`INSERT INTO ai_agent_turns (conversation_id, turn, idempotency_key, body_hash, request, status,
          result, attempts, epoch, trace_id, started_at, finished_at)
        VALUES (${id}, ${index + 1}, ${uuidv7()}, 'hash', ${json({ message: turn.user })}::jsonb, 'done', '{}'::jsonb,
          1, 1, ${traceId()}, ${at}, ${at})`
    }
    // Last turn first, each turn's messages last first: the reader must order them itself.
    for (const [index, turn] of [...rows.turns.entries()].reverse()) {
      const at = new Date(rows.createdAt.getTime() + index * 60_000)
      const trace = traceId()
      const tools = turn.tools ?? []
      const messages = [
        sql`(${uuidv7()}, ${rows.workspaceId}, ${id}, ${index + 1}, 0, 'user', ${turn.user}, NULL,
          ${json((turn.userEvents ?? []).map(event))}::jsonb, NULL, NULL, NULL, NULL, NULL, NULL, ${trace}, ${at})`,
        ...tools.map((tool, position) =>
          sql`(${uuidv7()}, ${rows.workspaceId}, ${id}, ${index + 1}, ${position + 1}, 'tool',
            ${`${tool.name}({"orderId":"42"})`},
            ${
            json({
              id: `call_${index}_${position}`,
              name: tool.name,
              toolId: uuidv7(),
              arguments: { orderId: "42" },
              status: tool.status,
              result: tool.status === "succeeded" ? { state: "shipped" } : null,
              error: tool.status === "failed" ? "HTTP 500" : tool.status === "blocked" ? "domain not allowed" : null,
              durationMs: tool.durationMs
            })
          }::jsonb, '[]'::jsonb, NULL, NULL, NULL, NULL, NULL, NULL, ${trace}, ${at})`
        ),
        sql`(${uuidv7()}, ${rows.workspaceId}, ${id}, ${index + 1}, ${tools.length + 1}, 'assistant', ${turn.reply},
          NULL, ${json((turn.replyEvents ?? []).map(event))}::jsonb, ${json(turn.usage)}::jsonb, ${turn.latencyMs},
          ${json({ provider: "openai", model: "gpt-4.1-mini", source: "agent" })}::jsonb,
          ${rows.version === undefined ? 1 : rows.version}, ${turn.handoff === true ? "handoff" : "stop"},
          ${
          turn.handoff === true ? json({ reason: "asked for a human", triggeredBy: "agent", target: null }) : null
        }::jsonb, ${trace}, ${at})`
      ].reverse()
      for (const message of messages) {
        yield* sql`INSERT INTO ai_agent_messages (id, workspace_id, conversation_id, turn, seq, role, content,
            tool_call, guardrail_events, usage, latency_ms, model, version, finish_reason, handoff, trace_id,
            created_at) VALUES ${message}`
      }
    }
    return id
  }).pipe(Effect.orDie)
