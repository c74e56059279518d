/**
 * Eval runs (`ai_agent_eval_runs`): written once, when a run has finished,
 * then only moved from the draft revision it ran to the version a publish
 * made of it. JSON columns are read as text: the client would rename
 * snake_case keys inside them.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgentEvalRun, type EvalRunStatus, type EvalRunTrigger } from "../../domain/aiAgents/EvalRun.js"
import type { AiAgentEvalRunId, AiAgentId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"

const columns = `id, workspace_id, agent_id, version, draft_revision, trigger, status, score, case_count,
  passed_count, results::text AS results, model::text AS model, error, usage::text AS usage, latency_ms,
  created_at, started_at, finished_at`

const decodeRuns = Schema.decodeUnknown(Schema.Array(AiAgentEvalRun))

const runsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeRuns(rows.map((row) => ({
    ...row,
    results: JSON.parse(String(row.results)),
    model: row.model === null ? null : JSON.parse(String(row.model)),
    usage: JSON.parse(String(row.usage))
  })))

/** A finished run as stored. */
export type EvalRunInsert = Omit<AiAgentEvalRun, "createdAt" | "startedAt" | "finishedAt"> & {
  readonly startedAt: Date
  readonly finishedAt: Date
}

/** The filters of a version's run list. */
export interface EvalRunFilters {
  readonly status?: EvalRunStatus | undefined
  readonly trigger?: EvalRunTrigger | undefined
}

export class AiAgentEvalRunRepo extends Effect.Service<AiAgentEvalRunRepo>()(
  "parley/persistence/AiAgentEvalRunRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const select = sql.literal(columns)
      const json = (value: unknown) => JSON.stringify(value)

      return {
        /** Store a finished run and answer it as stored. */
        insert: (run: EvalRunInsert) =>
          Effect.flatMap(
            sql`INSERT INTO ai_agent_eval_runs (id, workspace_id, agent_id, version, draft_revision, trigger, status,
                score, case_count, passed_count, results, model, error, usage, latency_ms, created_at, started_at,
                finished_at)
              VALUES (${run.id}, ${run.workspaceId}, ${run.agentId}, ${run.version}, ${run.draftRevision},
                ${run.trigger}, ${run.status}, ${run.score}, ${run.caseCount}, ${run.passedCount},
                ${json(run.results)}::jsonb, ${run.model === null ? null : json(run.model)}::jsonb, ${run.error},
                ${json(run.usage)}::jsonb, ${run.latencyMs}, ${run.startedAt}, ${run.startedAt}, ${run.finishedAt})
              RETURNING ${select}`,
            runsOf
          ).pipe(
            Effect.flatMap((runs) =>
              runs[0] === undefined ? Effect.die("the insert returned no row") : Effect.succeed(runs[0])
            ),
            Effect.orDie,
            Effect.withSpan("AiAgentEvalRunRepo.insert")
          ),
        /** A page of the runs of one version of the agent, newest first, with the filters, and how many pass them. */
        pageOfVersion: (
          agentId: AiAgentId,
          version: AiAgentVersionNumber,
          filters: EvalRunFilters,
          limit: number,
          offset: number
        ) => {
          const where = sql.and([
            sql`agent_id = ${agentId}`,
            sql`version = ${version}`,
            ...(filters.status === undefined ? [] : [sql`status = ${filters.status}`]),
            ...(filters.trigger === undefined ? [] : [sql`trigger = ${filters.trigger}`])
          ])
          return Effect.all([
            Effect.flatMap(
              sql`SELECT ${select} FROM ai_agent_eval_runs WHERE ${where}
                ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
              runsOf
            ),
            sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_eval_runs WHERE ${where}`
          ]).pipe(
            Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
            Effect.orDie,
            Effect.withSpan("AiAgentEvalRunRepo.pageOfVersion")
          )
        },
        /**
         * Move a publish gate's run from the draft revision it ran to the
         * version made of that revision, and make it the version's score.
         */
        attachToVersion: (agentId: AiAgentId, id: AiAgentEvalRunId, version: AiAgentVersionNumber) =>
          Effect.zipRight(
            sql`UPDATE ai_agent_eval_runs SET version = ${version}, draft_revision = NULL
              WHERE agent_id = ${agentId} AND id = ${id}`,
            sql`UPDATE ai_agent_versions v SET eval_score = r.score, eval_run_id = r.id
              FROM ai_agent_eval_runs r WHERE r.id = ${id} AND v.agent_id = ${agentId} AND v.number = ${version}`
          ).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("AiAgentEvalRunRepo.attachToVersion")),
        /** Make a suite run of a version (the live one, re-run by a publish gate) the version's score. */
        scoreVersion: (agentId: AiAgentId, id: AiAgentEvalRunId, version: AiAgentVersionNumber, score: number) =>
          sql`UPDATE ai_agent_versions SET eval_score = ${score}, eval_run_id = ${id}
            WHERE agent_id = ${agentId} AND number = ${version}`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AiAgentEvalRunRepo.scoreVersion")
          )
      } as const
    })
  }
) {}
