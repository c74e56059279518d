/**
 * An agent's guardrails (`ai_agent_guardrails`). Writes run in a transaction
 * that has locked the agent's row first, so a name check here and the write
 * after it cannot race another writer of the same agent. The rule is read as
 * text: the client would rename snake_case keys inside it.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgentGuardrail, type GuardrailAction, type GuardrailStage } from "../../domain/aiAgents/Guardrail.js"
import { type GuardrailKind, GuardrailRule } from "../../domain/aiAgents/GuardrailRule.js"
import type { AiAgentGuardrailId, AiAgentId } from "../../domain/aiAgents/Ids.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

const columns = `id, workspace_id, agent_id, name, stage, rule::text AS rule, action, enabled, message, created_at,
  updated_at`

const decodeGuardrails = Schema.decodeUnknown(Schema.Array(AiAgentGuardrail))
const encodeRule = Schema.encodeSync(Schema.parseJson(GuardrailRule))

/** Rows with their rule as text, decoded into the domain's guardrails. */
export const guardrailsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeGuardrails(rows.map((row) => ({ ...row, rule: JSON.parse(String(row.rule)) })))

/** What a write stores of a guardrail. */
export interface GuardrailWrite {
  readonly name: string
  readonly stage: GuardrailStage
  readonly rule: GuardrailRule
  readonly action: GuardrailAction
  readonly enabled: boolean
  readonly message: string | null
  readonly at: Date
}

/** The filters of the guardrail list. */
export interface GuardrailFilter {
  readonly stage?: GuardrailStage | undefined
  readonly kind?: GuardrailKind | undefined
}

export class AiAgentGuardrailRepo extends Effect.Service<AiAgentGuardrailRepo>()(
  "parley/persistence/AiAgentGuardrailRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const select = sql.literal(columns)
      const many = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
        Effect.flatMap(query, guardrailsOf)
      const one = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
        Effect.map(many(query), (guardrails) => guardrails[0])
      const where = (agentId: AiAgentId, filter: GuardrailFilter) =>
        sql.and([
          sql`agent_id = ${agentId}`,
          ...(filter.stage === undefined ? [] : [sql`stage = ${filter.stage}`]),
          ...(filter.kind === undefined ? [] : [sql`rule->>'kind' = ${filter.kind}`])
        ])
      const written = (guardrail: AiAgentGuardrail | undefined) =>
        guardrail === undefined ? Effect.die("the write returned no row") : Effect.succeed(guardrail)

      return {
        /** A page of the agent's guardrails by name, and how many match. */
        page: (agentId: AiAgentId, filter: GuardrailFilter, limit: number, offset: number) =>
          Effect.all([
            many(sql`SELECT ${select} FROM ai_agent_guardrails WHERE ${where(agentId, filter)} ORDER BY name, id
              LIMIT ${limit} OFFSET ${offset}`),
            sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_guardrails
              WHERE ${where(agentId, filter)}`
          ]).pipe(
            Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.page")
          ),
        find: (agentId: AiAgentId, id: AiAgentGuardrailId) =>
          one(sql`SELECT ${select} FROM ai_agent_guardrails WHERE agent_id = ${agentId} AND id = ${id}`).pipe(
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.find")
          ),
        /** Every guardrail of the agent's draft, by name (disabled ones too): what a snapshot freezes. */
        all: (agentId: AiAgentId) =>
          many(sql`SELECT ${select} FROM ai_agent_guardrails WHERE agent_id = ${agentId} ORDER BY name, id`).pipe(
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.all")
          ),
        /** Whether another guardrail of the agent (not `except`) has this name. */
        nameTaken: (agentId: AiAgentId, name: string, except?: AiAgentGuardrailId) =>
          sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM ai_agent_guardrails WHERE agent_id = ${agentId}
              AND name = ${name} ${except === undefined ? sql`` : sql`AND id <> ${except}`}) AS taken`.pipe(
            Effect.map(([row]) => row?.taken === true),
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.nameTaken")
          ),
        insert: (id: AiAgentGuardrailId, workspaceId: WorkspaceId, agentId: AiAgentId, write: GuardrailWrite) =>
          one(sql`INSERT INTO ai_agent_guardrails (id, workspace_id, agent_id, name, stage, rule, action, enabled,
              message, created_at, updated_at)
            VALUES (${id}, ${workspaceId}, ${agentId}, ${write.name}, ${write.stage}, ${encodeRule(write.rule)}::jsonb,
              ${write.action}, ${write.enabled}, ${write.message}, ${write.at}, ${write.at})
            RETURNING ${select}`).pipe(
            Effect.flatMap(written),
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.insert")
          ),
        update: (agentId: AiAgentId, id: AiAgentGuardrailId, write: GuardrailWrite) =>
          one(sql`UPDATE ai_agent_guardrails SET name = ${write.name}, stage = ${write.stage},
              rule = ${encodeRule(write.rule)}::jsonb, action = ${write.action}, enabled = ${write.enabled},
              message = ${write.message}, updated_at = ${write.at}
            WHERE agent_id = ${agentId} AND id = ${id} RETURNING ${select}`).pipe(
            Effect.flatMap(written),
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.update")
          ),
        delete: (agentId: AiAgentId, id: AiAgentGuardrailId) =>
          sql`DELETE FROM ai_agent_guardrails WHERE agent_id = ${agentId} AND id = ${id}`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AiAgentGuardrailRepo.delete")
          )
      } as const
    })
  }
) {}
