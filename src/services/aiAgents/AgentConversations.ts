/**
 * What an AI agent's users did, read-only: its conversations (a filtered page,
 * newest first; playground runs only when `channel=playground` asks for them),
 * one conversation with every message in transcript order, and the analytics
 * of the last N UTC days. The report covers the public and channel
 * conversations that started in the window and files each, with its turns,
 * messages and tool calls, under the day it started, so the days add up to the
 * totals (as the Assistants' report does).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { agentDays, toolFigures, totalsOf } from "../../domain/aiAgents/AgentAnalytics.js"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentAnalytics } from "../../domain/aiAgents/AiAgentAnalytics.js"
import { AiAgentConversationNotFound, type ConversationListParams } from "../../domain/aiAgents/Conversation.js"
import type { AiAgentConversationId } from "../../domain/aiAgents/Ids.js"
import { windowOf } from "../../domain/deployments/AnalyticsReport.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import { AgentConversationReadRepo } from "../../persistence/aiAgents/AgentConversationReadRepo.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { snapshot } from "../../persistence/Transaction.js"

export class AgentConversations extends Effect.Service<AgentConversations>()(
  "parley/services/aiAgents/AgentConversations",
  {
    effect: Effect.gen(function*() {
      const repo = yield* AgentConversationReadRepo
      const sql = yield* SqlClient.SqlClient
      const agents = yield* AiAgentRepo

      const agentOf = Effect.fn("AgentConversations.agentOf")(function*(workspaceId: WorkspaceId, slug: string) {
        const agent = yield* agents.findBySlug(workspaceId, slug)
        if (Option.isNone(agent)) {
          return yield* new AiAgentNotFound({ slug, message: `No AI agent ${slug} in this workspace` })
        }
        return agent.value
      })

      const list = Effect.fn("AgentConversations.list")(
        function*(principal: Principal, slug: string, params: typeof ConversationListParams.Type) {
          const agent = yield* agentOf(principal.workspaceId, slug)
          const { limit, offset, ...filters } = params
          const page = pageOf({ limit, offset })
          const { items, total } = yield* repo.page(principal.workspaceId, agent.id, filters, page.limit, page.offset)
          return { items, total, ...page }
        }
      )

      const get = Effect.fn("AgentConversations.get")(
        function*(principal: Principal, slug: string, id: AiAgentConversationId) {
          const agent = yield* agentOf(principal.workspaceId, slug)
          const conversation = yield* repo.find(principal.workspaceId, agent.id, id)
          if (Option.isNone(conversation)) {
            return yield* new AiAgentConversationNotFound({
              conversationId: id,
              message: `No conversation ${id} of the AI agent ${slug}`
            })
          }
          const messages = yield* repo.messages(principal.workspaceId, id)
          return { ...conversation.value, messages }
        },
        // The counters, status and title of the same moment as the messages.
        snapshot(sql)
      )

      const analytics = Effect.fn("AgentConversations.analytics")(
        function*(principal: Principal, slug: string, params: { readonly days: number }) {
          const agent = yield* agentOf(principal.workspaceId, slug)
          const window = windowOf(yield* Clock.currentTimeMillis, params.days)
          const scope = { workspaceId: principal.workspaceId, agentId: agent.id, start: window.start }
          const [daily, overall, tools, guardrails, evals] = yield* Effect.all(
            [repo.daily(scope), repo.overall(scope), repo.tools(scope), repo.guardrails(scope), repo.evals(scope)],
            { concurrency: "unbounded" }
          )
          const totals = totalsOf(daily)
          return {
            days: params.days,
            from: window.from,
            to: window.to,
            conversations: totals.conversations,
            turns: totals.turns,
            endUsers: overall.endUsers,
            handoffs: totals.handoffs,
            usage: totals.usage,
            latencyMs: { p50: overall.p50, p95: overall.p95, p99: overall.p99 },
            tools: tools.map(toolFigures),
            guardrails: guardrails.map(({ hits, latest }) => ({
              guardrailId: latest.guardrailId,
              name: latest.name,
              kind: latest.kind,
              stage: latest.stage,
              action: latest.action,
              hits
            })),
            evals: { runs: evals.runs, passRate: evals.passRate, latestScore: evals.latestScore },
            daily: agentDays(window.from, params.days, daily)
          } satisfies typeof AiAgentAnalytics.Type
        }
      )

      return { list, get, analytics } as const
    }),
    dependencies: [AgentConversationReadRepo.Default, AiAgentRepo.Default]
  }
) {}
