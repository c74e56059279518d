/**
 * Published versions of AI agents (`ai_agent_versions`): immutable snapshots
 * numbered from 1 per agent, and the agent row's release columns (the live
 * version and the public token's hash and hint), which only releases write.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect, Schema } from "effect"
import { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { type AiAgentVersion } from "../../domain/aiAgents/AiAgentVersion.js"
import { AiAgentEvalRunId, AiAgentId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { Revision } from "../../domain/Revision.js"

/** An `ai_agent_versions` row. */
const VersionRow = Schema.Struct({
  workspaceId: WorkspaceId,
  agentId: AiAgentId,
  number: AiAgentVersionNumber,
  notes: Schema.String,
  revision: Revision,
  createdBy: Schema.parseJson(Actor),
  evalScore: Schema.NullOr(Schema.Number),
  evalRunId: Schema.NullOr(AiAgentEvalRunId),
  snapshot: Schema.parseJson(AiAgentSnapshot),
  createdAt: Schema.DateFromSelf,
  live: Schema.Boolean
})

/** A version as the API shows it (`live` computed), with the snapshot it runs. */
export type StoredVersion = typeof AiAgentVersion.json.Type & { readonly snapshot: AiAgentSnapshot }

const toVersion = (row: typeof VersionRow.Type): StoredVersion => ({
  ...row,
  createdAt: DateTime.unsafeMake(row.createdAt) as DateTime.Utc
})

const encodeSnapshot = Schema.encodeSync(Schema.parseJson(AiAgentSnapshot))

/* JSON columns are read as text: the client would rename snake_case keys inside them. */
const columns = `v.workspace_id, v.agent_id, v.number, v.notes, v.revision, v.created_by::text AS created_by,
  v.eval_score, v.eval_run_id, v.snapshot::text AS snapshot, v.created_at,
  (a.live_version IS NOT DISTINCT FROM v.number) AS live`

/** What a publish stores of a new version. */
export interface VersionInsert {
  readonly workspaceId: WorkspaceId
  readonly agentId: AiAgentId
  readonly number: AiAgentVersionNumber
  readonly notes: string
  readonly revision: Revision
  readonly createdBy: Actor
  readonly snapshot: AiAgentSnapshot
  readonly at: Date
}

export class AiAgentVersionRepo extends Effect.Service<AiAgentVersionRepo>()("parley/persistence/AiAgentVersionRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const rows = Schema.decodeUnknown(Schema.Array(VersionRow))
    const versions = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      Effect.map(Effect.flatMap(query, rows), (found) => found.map(toVersion))

    return {
      /** A page of the agent's versions, newest first. */
      page: (workspaceId: WorkspaceId, agentId: AiAgentId, limit: number, offset: number) =>
        Effect.all([
          versions(sql`SELECT ${select} FROM ai_agent_versions v JOIN ai_agents a ON a.id = v.agent_id
            WHERE v.workspace_id = ${workspaceId} AND v.agent_id = ${agentId}
            ORDER BY v.number DESC LIMIT ${limit} OFFSET ${offset}`),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_versions
            WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.page")
        ),
      /** The agent's version with this number. */
      find: (workspaceId: WorkspaceId, agentId: AiAgentId, number: number) =>
        versions(sql`SELECT ${select} FROM ai_agent_versions v JOIN ai_agents a ON a.id = v.agent_id
          WHERE v.workspace_id = ${workspaceId} AND v.agent_id = ${agentId} AND v.number = ${number}`).pipe(
          Effect.map((found) => found[0]),
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.find")
        ),
      /** The agent's version with this number, whatever its workspace (the agent id is global). */
      findByAgent: (agentId: AiAgentId, number: number) =>
        versions(sql`SELECT ${select} FROM ai_agent_versions v JOIN ai_agents a ON a.id = v.agent_id
          WHERE v.agent_id = ${agentId} AND v.number = ${number}`).pipe(
          Effect.map((found) => found[0]),
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.findByAgent")
        ),
      /** The highest version number of the agent; 0 before its first publish. */
      latestNumber: (agentId: AiAgentId) =>
        sql<{ latest: number }>`SELECT coalesce(max(number), 0)::int AS latest FROM ai_agent_versions
          WHERE agent_id = ${agentId}`.pipe(
          Effect.map(([row]) => row?.latest ?? 0),
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.latestNumber")
        ),
      insert: (version: VersionInsert) =>
        sql`INSERT INTO ai_agent_versions (workspace_id, agent_id, number, notes, revision, created_by, snapshot,
            created_at)
          VALUES (${version.workspaceId}, ${version.agentId}, ${version.number}, ${version.notes}, ${version.revision},
            ${JSON.stringify(version.createdBy)}::jsonb, ${encodeSnapshot(version.snapshot)}::jsonb, ${version.at})`
          .pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("AiAgentVersionRepo.insert")),
      /** Make a version live (the agent's `updated_at` is the draft's, so it is left alone). */
      setLive: (agentId: AiAgentId, number: AiAgentVersionNumber) =>
        sql`UPDATE ai_agents SET live_version = ${number} WHERE id = ${agentId}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.setLive")
        ),
      /** Replace the public token's hash and hint: the old token matches nothing from this commit on. */
      setPublicToken: (agentId: AiAgentId, hash: string, hint: string) =>
        sql`UPDATE ai_agents SET public_token_hash = ${hash}, public_token_hint = ${hint} WHERE id = ${agentId}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.setPublicToken")
        ),
      /** The id and live version of the published agent whose public token has this hash. */
      byTokenHash: (hash: string) =>
        sql<{ id: AiAgentId; workspaceId: WorkspaceId; liveVersion: number }>`
          SELECT id, workspace_id, live_version FROM ai_agents
          WHERE public_token_hash = ${hash} AND live_version IS NOT NULL`.pipe(
          Effect.map((found) => found[0]),
          Effect.orDie,
          Effect.withSpan("AiAgentVersionRepo.byTokenHash")
        )
    }
  })
}) {}
