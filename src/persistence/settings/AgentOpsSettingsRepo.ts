import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import type { AgentOpsGroups } from "../../domain/settings/AgentOpsRules.js"
import {
  AgentHandoffTarget,
  AgentRateLimits,
  defaultAgentOps,
  PublishGates,
  Retention,
  TokenBudgets
} from "../../domain/settings/AgentOpsSettings.js"

/** The workspace's agent-ops settings as stored, or its defaults when it never saved any. */
export const AgentOpsSettingsRow = Schema.Struct({
  workspaceId: WorkspaceId,
  publishGates: Schema.parseJson(PublishGates),
  retention: Schema.parseJson(Retention),
  tokenBudgets: Schema.parseJson(TokenBudgets),
  rateLimits: Schema.parseJson(AgentRateLimits),
  handoff: Schema.parseJson(AgentHandoffTarget),
  updatedBy: Schema.NullOr(Schema.parseJson(Actor)),
  updatedAt: Schema.DateFromSelf
})
export type AgentOpsSettingsRow = typeof AgentOpsSettingsRow.Type

const defaults = (group: keyof AgentOpsGroups) => JSON.stringify(defaultAgentOps[group])

/*
 * JSON columns are read as text (the client would rename the keys inside
 * them). A workspace without a row reads as the defaults, dated from its creation.
 */
const read = `SELECT w.id AS workspace_id,
    COALESCE(s.publish_gates::text, $2) AS publish_gates, COALESCE(s.retention::text, $3) AS retention,
    COALESCE(s.token_budgets::text, $4) AS token_budgets, COALESCE(s.rate_limits::text, $5) AS rate_limits,
    COALESCE(s.handoff::text, $6) AS handoff, s.updated_by::text AS updated_by,
    COALESCE(s.updated_at, w.created_at) AS updated_at
  FROM workspaces w LEFT JOIN agent_ops_settings s ON s.workspace_id = w.id
  WHERE w.id = $1`

const parameters = (workspaceId: string) => [
  workspaceId,
  defaults("publishGates"),
  defaults("retention"),
  defaults("tokenBudgets"),
  defaults("rateLimits"),
  defaults("handoff")
]

/** `agent_ops_settings`: one row per workspace that changed its agent-ops settings. */
export class AgentOpsSettingsRepo extends Effect.Service<AgentOpsSettingsRepo>()(
  "parley/persistence/settings/AgentOpsSettingsRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const find = SqlSchema.single({
        Request: WorkspaceId,
        Result: AgentOpsSettingsRow,
        execute: (workspaceId) => sql.unsafe(read, parameters(workspaceId))
      })

      return {
        /** The workspace's settings, or its defaults. */
        find: (workspaceId: WorkspaceId) =>
          find(workspaceId).pipe(Effect.orDie, Effect.withSpan("AgentOpsSettingsRepo.find")),
        /**
         * The settings, with the workspace's row locked until the transaction
         * ends, so concurrent patches apply one after the other, each to what
         * the other stored (a workspace without settings has no row of its own
         * to lock, so the workspace's row is). The lock is taken first and the
         * settings read after it, by a statement of their own: one statement
         * would read them as they were before it waited. Inside a transaction only.
         */
        findForUpdate: (workspaceId: WorkspaceId) =>
          sql`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR NO KEY UPDATE`.pipe(
            Effect.zipRight(find(workspaceId)),
            Effect.orDie,
            Effect.withSpan("AgentOpsSettingsRepo.findForUpdate")
          ),
        save: (workspaceId: WorkspaceId, settings: AgentOpsGroups, updatedBy: Actor, updatedAt: Date) =>
          sql`INSERT INTO agent_ops_settings
              (workspace_id, publish_gates, retention, token_budgets, rate_limits, handoff, updated_by, updated_at)
            VALUES (${workspaceId}, ${JSON.stringify(settings.publishGates)}::jsonb,
              ${JSON.stringify(settings.retention)}::jsonb, ${JSON.stringify(settings.tokenBudgets)}::jsonb,
              ${JSON.stringify(settings.rateLimits)}::jsonb, ${JSON.stringify(settings.handoff)}::jsonb,
              ${JSON.stringify(updatedBy)}::jsonb, ${updatedAt})
            ON CONFLICT (workspace_id) DO UPDATE SET publish_gates = excluded.publish_gates,
              retention = excluded.retention, token_budgets = excluded.token_budgets,
              rate_limits = excluded.rate_limits, handoff = excluded.handoff,
              updated_by = excluded.updated_by, updated_at = excluded.updated_at`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AgentOpsSettingsRepo.save")
          )
      } as const
    })
  }
) {}
