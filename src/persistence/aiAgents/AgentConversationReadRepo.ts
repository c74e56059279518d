/**
 * AI-agent conversations as the API reads them (the runtime writes them
 * through `AgentConversationRepo`): a filtered page, one conversation with its
 * transcript in turn and message order, and the analytics figures, counted in
 * SQL over the conversations of a window (playground runs excluded). A
 * conversation's guardrail hits are counted from its messages' events.
 * Percentiles are PostgreSQL's `percentile_cont` (linear interpolation),
 * rounded to the microsecond.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { CountedDay, CountedTool } from "../../domain/aiAgents/AgentAnalytics.js"
import { TurnGuardrailEvent } from "../../domain/aiAgents/AgentTurn.js"
import { AiAgentConversation, type ConversationListParams } from "../../domain/aiAgents/Conversation.js"
import { AiAgentMessage } from "../../domain/aiAgents/ConversationMessage.js"
import { AiAgentConversationId, AiAgentId } from "../../domain/aiAgents/Ids.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"

/** Which conversations an analytics report covers: one agent's, not in the playground, started since `start`. */
export interface AgentAnalyticsScope {
  readonly workspaceId: WorkspaceId
  readonly agentId: AiAgentId
  readonly start: Date
}

/** The filters of a conversation list, decoded. */
export type ConversationFilters = Omit<typeof ConversationListParams.Type, "limit" | "offset">

const Num = Schema.Number
const NullableNum = Schema.NullOr(Schema.Number)
const DayRow = Schema.Struct({
  day: Schema.String,
  conversations: Num,
  turns: Num,
  handoffs: Num,
  guardrailHits: Num,
  inputTokens: Num,
  outputTokens: Num,
  knownCostUsd: Num,
  pricedMessages: Num,
  costedMessages: Num,
  p95LatencyMs: NullableNum
})
const ToolRow = Schema.Struct({
  name: Schema.String,
  succeeded: Num,
  failed: Num,
  blocked: Num,
  p95LatencyMs: NullableNum
})
const GuardrailRow = Schema.Struct({ latest: TurnGuardrailEvent, hits: Num })
const OverallRow = Schema.Struct({
  endUsers: Num,
  p50: NullableNum,
  p95: NullableNum,
  p99: NullableNum
})
const EvalRow = Schema.Struct({ runs: Num, latestScore: NullableNum, passRate: NullableNum })

const ConversationKey = Schema.Struct({ workspaceId: WorkspaceId, agentId: AiAgentId, id: AiAgentConversationId })

export class AgentConversationReadRepo extends Effect.Service<AgentConversationReadRepo>()(
  "parley/persistence/AgentConversationReadRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      /** Every column `AiAgentConversation` selects; usage as one object, guardrail hits from the messages. */
      const columns = sql`c.id, c.workspace_id, c.agent_id, c.channel, c.status, c.version, c.end_user_id, c.title,
        c.metadata, c.turns,
        jsonb_build_object('inputTokens', c.input_tokens, 'outputTokens', c.output_tokens, 'costUsd', c.cost_usd)
          AS usage,
        (SELECT coalesce(sum(jsonb_array_length(m.guardrail_events)), 0)::int FROM ai_agent_messages m
          WHERE m.conversation_id = c.id) AS guardrail_hits,
        c.created_at, c.updated_at`

      const filter = (workspaceId: WorkspaceId, agentId: AiAgentId, filters: ConversationFilters) =>
        sql.and([
          sql`c.workspace_id = ${workspaceId}`,
          sql`c.agent_id = ${agentId}`,
          filters.channel === undefined ? sql`c.channel <> 'playground'` : sql`c.channel = ${filters.channel}`,
          ...(filters.from === undefined ? [] : [sql`c.created_at >= ${new Date(filters.from.epochMillis)}`]),
          ...(filters.to === undefined ? [] : [sql`c.created_at < ${new Date(filters.to.epochMillis)}`]),
          ...(filters.status === undefined ? [] : [sql`c.status = ${filters.status}`]),
          ...(filters.endUserId === undefined ? [] : [sql`c.end_user_id = ${filters.endUserId}`]),
          ...(filters.version === undefined ? [] : [
            sql`(c.version = ${filters.version} OR EXISTS (SELECT 1 FROM ai_agent_messages m
              WHERE m.conversation_id = c.id AND m.role = 'assistant' AND m.version = ${filters.version}))`
          ])
        ])

      const rows = Schema.decodeUnknown(Schema.Array(AiAgentConversation))

      const one = SqlSchema.findOne({
        Request: ConversationKey,
        Result: AiAgentConversation,
        execute: ({ agentId, id, workspaceId }) =>
          sql`SELECT ${columns} FROM ai_agent_conversations c
              WHERE c.workspace_id = ${workspaceId} AND c.agent_id = ${agentId} AND c.id = ${id}`
      })

      const messages = SqlSchema.findAll({
        Request: Schema.Struct({ workspaceId: WorkspaceId, id: AiAgentConversationId }),
        Result: AiAgentMessage,
        execute: ({ id, workspaceId }) =>
          sql`SELECT id, workspace_id, conversation_id, role, content, redacted, tool_call, guardrail_events, usage,
                latency_ms, model, version, finish_reason, handoff, trace_id, created_at
              FROM ai_agent_messages WHERE workspace_id = ${workspaceId} AND conversation_id = ${id}
              ORDER BY turn, seq`
      })

      /** The scope's conversations, each with the UTC day it started. */
      const scoped = (scope: AgentAnalyticsScope) =>
        sql`WITH scoped AS (
              SELECT c.id, c.turns, c.status, c.end_user_id,
                to_char((c.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day
              FROM ai_agent_conversations c
              WHERE c.workspace_id = ${scope.workspaceId} AND c.agent_id = ${scope.agentId}
                AND c.channel <> 'playground' AND c.created_at >= ${scope.start}
            ), messages AS (
              SELECT s.day, m.role, m.usage, m.latency_ms, m.tool_call, m.guardrail_events, m.handoff, m.created_at
              FROM scoped s JOIN ai_agent_messages m ON m.conversation_id = s.id
            )`

      const daily = (scope: AgentAnalyticsScope) =>
        sql`${scoped(scope)},
            by_conversation AS (
              SELECT day, count(*)::int AS conversations, coalesce(sum(turns), 0)::int AS turns,
                (count(*) FILTER (WHERE status = 'handed-off' OR EXISTS (
                  SELECT 1 FROM ai_agent_messages m WHERE m.conversation_id = scoped.id AND m.handoff IS NOT NULL
                )))::int AS handoffs
              FROM scoped GROUP BY day
            ), by_message AS (
              SELECT day,
                coalesce(sum(jsonb_array_length(guardrail_events)), 0)::int AS guardrail_hits,
                coalesce(sum((usage->>'inputTokens')::float8) FILTER (WHERE role = 'assistant'), 0) AS input_tokens,
                coalesce(sum((usage->>'outputTokens')::float8) FILTER (WHERE role = 'assistant'), 0) AS output_tokens,
                coalesce(sum((usage->>'costUsd')::float8) FILTER (WHERE role = 'assistant'), 0) AS known_cost_usd,
                (count(*) FILTER (WHERE role = 'assistant' AND usage IS NOT NULL))::int AS priced_messages,
                (count(*) FILTER (WHERE role = 'assistant' AND usage->>'costUsd' IS NOT NULL))::int AS costed_messages,
                round((percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)
                  FILTER (WHERE role = 'assistant'))::numeric, 3)::float8 AS p95_latency_ms
              FROM messages GROUP BY day
            )
            SELECT c.day, c.conversations, c.turns, c.handoffs,
              coalesce(m.guardrail_hits, 0) AS guardrail_hits, coalesce(m.input_tokens, 0) AS input_tokens,
              coalesce(m.output_tokens, 0) AS output_tokens, coalesce(m.known_cost_usd, 0) AS known_cost_usd,
              coalesce(m.priced_messages, 0) AS priced_messages, coalesce(m.costed_messages, 0) AS costed_messages,
              m.p95_latency_ms
            FROM by_conversation c LEFT JOIN by_message m ON m.day = c.day ORDER BY c.day`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Array(DayRow)))
        )

      const overall = (scope: AgentAnalyticsScope) =>
        sql`${scoped(scope)}
            SELECT (SELECT count(DISTINCT end_user_id) FROM scoped)::int AS end_users,
              round(p[1]::numeric, 3)::float8 AS p50, round(p[2]::numeric, 3)::float8 AS p95,
              round(p[3]::numeric, 3)::float8 AS p99
            FROM (SELECT percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY latency_ms) AS p
              FROM messages WHERE role = 'assistant' AND latency_ms IS NOT NULL) latency`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Tuple(OverallRow)))
        )

      const tools = (scope: AgentAnalyticsScope) =>
        sql`${scoped(scope)}
            SELECT tool_call->>'name' AS name,
              (count(*) FILTER (WHERE tool_call->>'status' = 'succeeded'))::int AS succeeded,
              (count(*) FILTER (WHERE tool_call->>'status' = 'failed'))::int AS failed,
              (count(*) FILTER (WHERE tool_call->>'status' = 'blocked'))::int AS blocked,
              round((percentile_cont(0.95) WITHIN GROUP (ORDER BY (tool_call->>'durationMs')::float8))::numeric, 3)::float8
                AS p95_latency_ms
            FROM messages WHERE role = 'tool' AND jsonb_typeof(tool_call) = 'object'
            GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 100`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Array(ToolRow)))
        )

      const guardrails = (scope: AgentAnalyticsScope) =>
        sql`${scoped(scope)}
            SELECT (array_agg(event ORDER BY created_at DESC))[1] AS latest, count(*)::int AS hits
            FROM messages, jsonb_array_elements(guardrail_events) AS event
            GROUP BY event->>'guardrailId' ORDER BY count(*) DESC, event->>'guardrailId' LIMIT 100`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Array(GuardrailRow)))
        )

      const evals = (scope: AgentAnalyticsScope) =>
        sql`SELECT (count(DISTINCT v.eval_run_id))::int AS runs,
              (array_agg(v.eval_score ORDER BY v.number DESC) FILTER (WHERE v.eval_score IS NOT NULL))[1]
                AS latest_score,
              sum(r.passed_count)::float8 / nullif(sum(r.case_count), 0) AS pass_rate
            FROM ai_agent_versions v LEFT JOIN ai_agent_eval_runs r ON r.id = v.eval_run_id
            WHERE v.workspace_id = ${scope.workspaceId} AND v.agent_id = ${scope.agentId}
              AND v.created_at >= ${scope.start} AND v.eval_run_id IS NOT NULL`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Tuple(EvalRow)))
        )

      return {
        /** One page of the agent's conversations that pass the filters, newest first, and how many pass. */
        page: (
          workspaceId: WorkspaceId,
          agentId: AiAgentId,
          filters: ConversationFilters,
          limit: number,
          offset: number
        ) =>
          Effect.all([
            sql`SELECT ${columns} FROM ai_agent_conversations c WHERE ${filter(workspaceId, agentId, filters)}
                ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.flatMap(rows)),
            sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_conversations c
                WHERE ${filter(workspaceId, agentId, filters)}`
          ]).pipe(
            Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
            Effect.orDie,
            Effect.withSpan("AgentConversationReadRepo.page")
          ),
        /** The agent's conversation with this id in the workspace. */
        find: (workspaceId: WorkspaceId, agentId: AiAgentId, id: AiAgentConversationId) =>
          one({ workspaceId, agentId, id }).pipe(Effect.orDie, Effect.withSpan("AgentConversationReadRepo.find")),
        /** The conversation's messages in transcript order (turn, then position in the turn). */
        messages: (workspaceId: WorkspaceId, id: AiAgentConversationId) =>
          messages({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("AgentConversationReadRepo.messages")),
        /** The figures of each day that had conversations, oldest first. */
        daily: (scope: AgentAnalyticsScope): Effect.Effect<ReadonlyArray<CountedDay>> =>
          daily(scope).pipe(Effect.orDie, Effect.withSpan("AgentConversationReadRepo.daily")),
        /** Distinct end users and the turn latency percentiles over the whole window. */
        overall: (scope: AgentAnalyticsScope) =>
          overall(scope).pipe(
            Effect.map(([row]) => row),
            Effect.orDie,
            Effect.withSpan("AgentConversationReadRepo.overall")
          ),
        /** How each tool's calls ended, most called first. */
        tools: (scope: AgentAnalyticsScope): Effect.Effect<ReadonlyArray<CountedTool>> =>
          tools(scope).pipe(Effect.orDie, Effect.withSpan("AgentConversationReadRepo.tools")),
        /** Each guardrail's hits with its latest event (for its name, kind, stage and action), most first. */
        guardrails: (scope: AgentAnalyticsScope) =>
          guardrails(scope).pipe(Effect.orDie, Effect.withSpan("AgentConversationReadRepo.guardrails")),
        /**
         * Eval runs recorded on the versions published in the window, the share of their cases that
         * passed, and the newest version's score.
         */
        evals: (scope: AgentAnalyticsScope) =>
          evals(scope).pipe(
            Effect.map(([row]) => row),
            Effect.orDie,
            Effect.withSpan("AgentConversationReadRepo.evals")
          )
      } as const
    })
  }
) {}
