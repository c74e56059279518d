/**
 * AI agents' rows: the draft configuration, its revision, the live version
 * and the public token's hash. `status` and `hasUnpublishedChanges` are
 * computed here from the live version (the draft differs from it when its
 * revision is not the one the live version snapshots).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentId } from "../../domain/aiAgents/Ids.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Revision } from "../../domain/Revision.js"
import { Slug } from "../../domain/Slug.js"

/** The outcome of moving a draft's revision on. */
export type AgentRevisionBump =
  | { readonly _tag: "Bumped"; readonly revision: Revision }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Stale"; readonly actual: Revision }

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

    return {
      /** The agent with this slug in the workspace. */
      findBySlug: (workspaceId: WorkspaceId, slug: string) =>
        bySlug({ workspaceId, slug }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.findBySlug")),
      /** The agent with this slug, its row locked until the transaction ends. */
      lockBySlug: (workspaceId: WorkspaceId, slug: string) =>
        lockBySlug({ workspaceId, slug }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.lockBySlug")),
      findById: (workspaceId: WorkspaceId, id: AiAgentId) =>
        byId({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.findById")),
      bumpRevision: (workspaceId: WorkspaceId, id: AiAgentId, expected: Revision | undefined, now: Date) =>
        bumpRevision(workspaceId, id, expected, now).pipe(Effect.orDie, Effect.withSpan("AiAgentRepo.bumpRevision"))
    } as const
  })
}) {}
