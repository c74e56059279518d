/**
 * AI agents' rows: the draft configuration, its revision, the live version
 * and the public token's hash. `status` and `hasUnpublishedChanges` are
 * computed here from the live version (the draft differs from it when its
 * revision is not the one the live version snapshots).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgent, type AiAgentStatus } from "../../domain/aiAgents/AiAgent.js"
import type { ConversationSettings } from "../../domain/aiAgents/ConversationSettings.js"
import type { EmbedSettings } from "../../domain/aiAgents/EmbedSettings.js"
import { AiAgentId } from "../../domain/aiAgents/Ids.js"
import type { ModelSettings } from "../../domain/aiAgents/ModelSettings.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Revision } from "../../domain/Revision.js"
import { Slug } from "../../domain/Slug.js"

/** The outcome of moving a draft's revision on. */
export type AgentRevisionBump =
  | { readonly _tag: "Bumped"; readonly revision: Revision }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Stale"; readonly actual: Revision }

/** The filters of the agent list. */
export interface AgentFilter {
  readonly workspaceId: WorkspaceId
  readonly status?: AiAgentStatus | undefined
  readonly q?: string | undefined
}

/** A new agent's row. */
export interface AgentInsert {
  readonly id: AiAgentId
  readonly workspaceId: WorkspaceId
  readonly slug: string
  readonly name: string
  readonly description: string
  readonly instructions: string
  readonly modelSettings: ModelSettings
  readonly conversation: ConversationSettings
  readonly embed: EmbedSettings
  readonly at: Date
}

/** The draft settings a PATCH may replace; absent ones stay. */
export interface AgentSettings {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly instructions?: string | undefined
  readonly modelSettings?: ModelSettings | undefined
  readonly conversation?: ConversationSettings | undefined
  readonly embed?: EmbedSettings | undefined
}

const BySlug = Schema.Struct({ workspaceId: WorkspaceId, slug: Slug })
const ById = Schema.Struct({ workspaceId: WorkspaceId, id: AiAgentId })

/** AI agents of a workspace, by slug or id. */
export class AiAgentRepo extends Effect.Service<AiAgentRepo>()("parley/persistence/AiAgentRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Every column `AiAgent` selects, `status` and `has_unpublished_changes` computed. */
    const columns = sql`a.id, a.workspace_id, a.slug, a.name, a.description, a.instructions, a.model_settings,
      a.conversation, a.embed, a.live_version, a.public_token_hash, a.public_token_hint, a.revision,
      a.created_at, a.updated_at,
      CASE WHEN a.live_version IS NULL THEN 'draft-only' ELSE 'live' END AS status,
      (a.live_version IS NULL OR a.revision IS DISTINCT FROM (
        SELECT v.revision FROM ai_agent_versions v WHERE v.agent_id = a.id AND v.number = a.live_version
      )) AS has_unpublished_changes`

    const bySlug = SqlSchema.findOne({
      Request: BySlug,
      Result: AiAgent,
      execute: ({ slug, workspaceId }) =>
        sql`SELECT ${columns} FROM ai_agents a WHERE a.workspace_id = ${workspaceId} AND a.slug = ${slug}`
    })
    const lockBySlug = SqlSchema.findOne({
      Request: BySlug,
      Result: AiAgent,
      execute: ({ slug, workspaceId }) =>
        sql`SELECT ${columns} FROM ai_agents a WHERE a.workspace_id = ${workspaceId} AND a.slug = ${slug}
            FOR UPDATE OF a`
    })
    const byId = SqlSchema.findOne({
      Request: ById,
      Result: AiAgent,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${columns} FROM ai_agents a WHERE a.workspace_id = ${workspaceId} AND a.id = ${id}`
    })

    /**
     * One more write to the draft: the revision goes up by one, on the
     * condition that it still is `expected` when one is given. The row stays
     * locked until the transaction ends, so draft writes take turns and two
     * writers from the same revision cannot both succeed.
     */
    const bumpRevision = (workspaceId: WorkspaceId, id: AiAgentId, expected: Revision | undefined, now: Date) =>
      Effect.gen(function*() {
        const bumped = yield* sql<{ revision: Revision }>`
          UPDATE ai_agents SET revision = revision + 1, updated_at = ${now}
          WHERE workspace_id = ${workspaceId} AND id = ${id}
            ${expected === undefined ? sql`` : sql`AND revision = ${expected}`}
          RETURNING revision`
        if (bumped.length === 1) return { _tag: "Bumped", revision: bumped[0]!.revision } satisfies AgentRevisionBump
        if (expected === undefined) return { _tag: "NotFound" } satisfies AgentRevisionBump
        const current = yield* sql<{ revision: Revision }>`
          SELECT revision FROM ai_agents WHERE workspace_id = ${workspaceId} AND id = ${id}`
        return current.length === 0
          ? { _tag: "NotFound" } satisfies AgentRevisionBump
          : { _tag: "Stale", actual: current[0]!.revision } satisfies AgentRevisionBump
      })

    const decodeAgents = Schema.decodeUnknown(Schema.Array(AiAgent))

    /** The rows of a list: the workspace's agents, optionally in one status or matching a text. */
    const listed = (filter: AgentFilter) =>
      sql.and([
        sql`a.workspace_id = ${filter.workspaceId}`,
        filter.status === undefined
          ? sql`true`
          : filter.status === "live"
          ? sql`a.live_version IS NOT NULL`
          : sql`a.live_version IS NULL`,
        filter.q === undefined
          ? sql`true`
          : sql`(strpos(lower(a.name), lower(${filter.q})) > 0 OR strpos(a.slug, lower(${filter.q})) > 0)`
      ])

    return {
      /** One page of the workspace's agents, oldest first, and how many match. */
      page: (filter: AgentFilter, limit: number, offset: number) =>
        Effect.gen(function*() {
          const rows = yield* sql`SELECT ${columns} FROM ai_agents a WHERE ${listed(filter)}
            ORDER BY a.created_at, a.id LIMIT ${limit} OFFSET ${offset}`
          const [count] = yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agents a
            WHERE ${listed(filter)}`
          return { items: yield* decodeAgents(rows), total: count?.total ?? 0 }
        }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.page")),
      /** A new agent at revision 1 with no live version. */
      insert: (row: AgentInsert) =>
        sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
              conversation, embed, revision, created_at, updated_at)
            VALUES (${row.id}, ${row.workspaceId}, ${row.slug}, ${row.name}, ${row.description}, ${row.instructions},
              ${JSON.stringify(row.modelSettings)}::jsonb, ${JSON.stringify(row.conversation)}::jsonb,
              ${JSON.stringify(row.embed)}::jsonb, 1, ${row.at}, ${row.at})
            ON CONFLICT (workspace_id, slug) DO NOTHING RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("AiAgentRepo.insert")
        ),
      /** Replace the given settings of the agent's draft (its row locked by the caller). */
      update: (workspaceId: WorkspaceId, id: AiAgentId, settings: AgentSettings, at: Date) => {
        const sets = [
          sql`updated_at = ${at}`,
          ...(settings.name === undefined ? [] : [sql`name = ${settings.name}`]),
          ...(settings.description === undefined ? [] : [sql`description = ${settings.description}`]),
          ...(settings.instructions === undefined ? [] : [sql`instructions = ${settings.instructions}`]),
          ...(settings.modelSettings === undefined
            ? []
            : [sql`model_settings = ${JSON.stringify(settings.modelSettings)}::jsonb`]),
          ...(settings.conversation === undefined
            ? []
            : [sql`conversation = ${JSON.stringify(settings.conversation)}::jsonb`]),
          ...(settings.embed === undefined ? [] : [sql`embed = ${JSON.stringify(settings.embed)}::jsonb`])
        ]
        return sql`UPDATE ai_agents SET ${sql.csv(sets)} WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AiAgentRepo.update")
        )
      },
      /** Delete the agent (its collections, versions and conversations go with it); whether it existed. */
      remove: (workspaceId: WorkspaceId, id: AiAgentId) =>
        sql`DELETE FROM ai_agents WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("AiAgentRepo.remove")
        ),
      /** The agent with this slug in the workspace. */
      findBySlug: (workspaceId: WorkspaceId, slug: string) =>
        bySlug({ workspaceId, slug }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.findBySlug")),
      /** The agent with this slug, its row locked until the transaction ends. */
      lockBySlug: (workspaceId: WorkspaceId, slug: string) =>
        lockBySlug({ workspaceId, slug }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.lockBySlug")),
      /** Which of these slugs name agents of the workspace, and whether each has a live version. */
      publishedBySlugs: (workspaceId: WorkspaceId, slugs: ReadonlyArray<string>) =>
        (slugs.length === 0
          ? Effect.succeed<ReadonlyArray<{ slug: string; published: boolean }>>([])
          : sql<{ slug: string; published: boolean }>`SELECT slug, live_version IS NOT NULL AS published
              FROM ai_agents WHERE workspace_id = ${workspaceId} AND ${sql.in("slug", slugs)}`).pipe(
            Effect.map((rows) => new Map(rows.map((row) => [row.slug, row.published] as const))),
            Effect.orDie,
            Effect.withSpan("AiAgentRepo.publishedBySlugs")
          ),
      findById: (workspaceId: WorkspaceId, id: AiAgentId) =>
        byId({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.findById")),
      bumpRevision: (workspaceId: WorkspaceId, id: AiAgentId, expected: Revision | undefined, now: Date) =>
        bumpRevision(workspaceId, id, expected, now).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.bumpRevision"))
    } as const
  })
}) {}
