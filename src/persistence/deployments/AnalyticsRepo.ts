import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import { FAILURE_OUTCOMES } from "../../domain/deployments/AnalyticsReport.js"
import type { DeploymentId } from "../../domain/deployments/Deployment.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

/** Which public sessions a report covers: one Assistant's (optionally one deployment's), started since `start`. */
export interface AnalyticsScope {
  readonly workspaceId: WorkspaceId
  readonly agentId: AssistantId
  readonly deploymentId: DeploymentId | undefined
  readonly start: Date
}

const Count = Schema.NumberFromString
const DayRow = Schema.Struct({
  day: Schema.String,
  sessions: Count,
  turns: Count,
  completed: Count,
  handedOff: Count,
  fallbacks: Count
})
const LabelRow = Schema.Struct({ label: Schema.String, count: Count })

/** Figures over the runtime's own tables: sessions, their turns and their final replies. */
export class AnalyticsRepo extends Effect.Service<AnalyticsRepo>()("parley/persistence/AnalyticsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Per session of the scope: its start day, status, waiting node, end outcome, user turns and fallbacks. */
    const facts = (scope: AnalyticsScope) =>
      sql`WITH scoped AS (
            SELECT id, status, turn, state->>'nodeId' AS node_id,
              to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day
            FROM runtime_sessions
            WHERE workspace_id = ${scope.workspaceId} AND agent_id = ${scope.agentId} AND deployment_id IS NOT NULL
              ${scope.deploymentId === undefined ? sql`` : sql`AND deployment_id = ${scope.deploymentId}`}
              AND created_at >= ${scope.start}
          ), facts AS (
            SELECT s.id, s.day, s.status, s.node_id,
              CASE WHEN s.status = 'ended' THEN (
                SELECT jsonb_path_query_first(t.reply, '$.messages[*] ? (@.type == "end").outcome') #>> '{}'
                FROM runtime_turns t WHERE t.session_id = s.id AND t.turn = s.turn
              ) END AS outcome,
              (SELECT count(*) FROM runtime_turns t WHERE t.session_id = s.id AND t.turn > 0) AS turns,
              (SELECT count(*) FROM runtime_turns t WHERE t.session_id = s.id AND t.fallback) AS fallbacks
            FROM scoped s
          )`

    const failures = sql.in(FAILURE_OUTCOMES as unknown as Array<string>)

    const daily = (scope: AnalyticsScope) =>
      sql`${facts(scope)}
          SELECT day, count(*)::text AS sessions, coalesce(sum(turns), 0)::text AS turns,
            (count(*) FILTER (WHERE status = 'ended' AND coalesce(outcome, '') NOT IN ${failures}))::text AS completed,
            (count(*) FILTER (WHERE status = 'handed-off'))::text AS handed_off,
            coalesce(sum(fallbacks), 0)::text AS fallbacks
          FROM facts GROUP BY day ORDER BY day`.pipe(Effect.flatMap(Schema.decodeUnknown(Schema.Array(DayRow))))

    const outcomes = (scope: AnalyticsScope) =>
      sql`${facts(scope)}
          SELECT coalesce(outcome, 'ended') AS label, count(*)::text AS count
          FROM facts WHERE status = 'ended' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 50`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(LabelRow)))
      )

    const dropOffs = (scope: AnalyticsScope) =>
      sql`${facts(scope)}
          SELECT node_id AS label, count(*)::text AS count
          FROM facts WHERE status = 'active' AND node_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 20`
        .pipe(Effect.flatMap(Schema.decodeUnknown(Schema.Array(LabelRow))))

    const intents = (scope: AnalyticsScope) =>
      sql`${facts(scope)}
          SELECT t.intent AS label, count(*)::text AS count
          FROM runtime_turns t JOIN facts f ON f.id = t.session_id
          WHERE t.intent IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 20`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(LabelRow)))
      )

    return {
      /** The daily figures, for the days that have sessions. */
      daily: (scope: AnalyticsScope) => daily(scope).pipe(Effect.orDie, Effect.withSpan("AnalyticsRepo.daily")),
      /** Ended sessions by the outcome of their end (`ended` when the end has none), most first. */
      outcomes: (scope: AnalyticsScope) =>
        outcomes(scope).pipe(Effect.orDie, Effect.withSpan("AnalyticsRepo.outcomes")),
      /** Sessions still waiting, by the node they wait at, most first. */
      dropOffs: (scope: AnalyticsScope) =>
        dropOffs(scope).pipe(Effect.orDie, Effect.withSpan("AnalyticsRepo.dropOffs")),
      /** Recognised intents, most first. */
      intents: (scope: AnalyticsScope) => intents(scope).pipe(Effect.orDie, Effect.withSpan("AnalyticsRepo.intents"))
    } as const
  })
}) {}
