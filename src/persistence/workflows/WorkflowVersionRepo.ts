/**
 * Versions of graph workflows (`workflow_versions`): snapshots numbered from
 * 1 per workflow, written once and never changed. The callers scope them: a
 * workflow is found in the caller's workspace before its versions are read.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { Actor } from "../../domain/identity/Actor.js"
import type { Revision } from "../../domain/Revision.js"
import type { WorkflowId, WorkflowVersionNumber } from "../../domain/workflows/Ids.js"
import type { WorkflowGraph } from "../../domain/workflows/WorkflowGraph.js"
import { WorkflowVersion, type WorkflowVersionKind } from "../../domain/workflows/WorkflowVersion.js"
import { graphJson } from "./WorkflowRepo.js"

/** What a publish (or a restore saving the draft) stores of a new version. */
export interface WorkflowVersionInsert {
  readonly workflowId: WorkflowId
  readonly version: WorkflowVersionNumber
  readonly kind: WorkflowVersionKind
  readonly graph: WorkflowGraph
  readonly revision: Revision
  readonly note: string
  readonly publishedBy: Actor
  readonly at: Date
}

/* JSON columns are read as text and parsed here, so the client never touches the keys inside them. */
const columns = `v.workflow_id, v.version, v.kind, v.graph::text AS graph, v.revision, v.note,
  v.published_by::text AS published_by, v.published_at`

const decodeVersions = Schema.decodeUnknown(Schema.Array(WorkflowVersion))
const versionsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeVersions(rows.map((row) => ({
    ...row,
    graph: JSON.parse(String(row["graph"])),
    publishedBy: JSON.parse(String(row["publishedBy"]))
  })))

export class WorkflowVersionRepo extends Effect.Service<WorkflowVersionRepo>()(
  "parley/persistence/WorkflowVersionRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const select = sql.literal(columns)

      return {
        /** A page of the workflow's versions, newest first, and how many it has. */
        page: (workflowId: WorkflowId, limit: number, offset: number) =>
          Effect.all([
            sql`SELECT ${select} FROM workflow_versions v WHERE v.workflow_id = ${workflowId}
              ORDER BY v.version DESC LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.flatMap(versionsOf)),
            sql<{ total: number }>`SELECT count(*)::int AS total FROM workflow_versions
              WHERE workflow_id = ${workflowId}`
          ]).pipe(
            Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
            Effect.orDie,
            Effect.withSpan("WorkflowVersionRepo.page")
          ),
        find: (workflowId: WorkflowId, version: WorkflowVersionNumber) =>
          sql`SELECT ${select} FROM workflow_versions v
            WHERE v.workflow_id = ${workflowId} AND v.version = ${version}`.pipe(
            Effect.flatMap(versionsOf),
            Effect.map((found) => found[0]),
            Effect.orDie,
            Effect.withSpan("WorkflowVersionRepo.find")
          ),
        /** The highest version number of the workflow; 0 before its first. */
        latestNumber: (workflowId: WorkflowId) =>
          sql<{ latest: number }>`SELECT coalesce(max(version), 0)::int AS latest FROM workflow_versions
            WHERE workflow_id = ${workflowId}`.pipe(
            Effect.map(([row]) => row?.latest ?? 0),
            Effect.orDie,
            Effect.withSpan("WorkflowVersionRepo.latestNumber")
          ),
        /** Whether some version of the workflow holds exactly its draft graph (compared as JSON values). */
        holdsDraft: (workflowId: WorkflowId) =>
          sql<{ held: boolean }>`SELECT EXISTS (SELECT 1 FROM workflow_versions v JOIN workflows w
              ON w.id = v.workflow_id WHERE w.id = ${workflowId} AND v.graph = w.graph) AS held`.pipe(
            Effect.map(([row]) => row?.held === true),
            Effect.orDie,
            Effect.withSpan("WorkflowVersionRepo.holdsDraft")
          ),
        insert: (version: WorkflowVersionInsert) =>
          sql`INSERT INTO workflow_versions AS v (workflow_id, version, kind, graph, revision, note, published_by,
              published_at)
            VALUES (${version.workflowId}, ${version.version}, ${version.kind}, ${graphJson(version.graph)}::jsonb,
              ${version.revision}, ${version.note}, ${JSON.stringify(version.publishedBy)}::jsonb, ${version.at})
            RETURNING ${select}`.pipe(
            Effect.flatMap(versionsOf),
            Effect.flatMap((found) =>
              found[0] === undefined ? Effect.dieMessage("the insert returned no row") : Effect.succeed(found[0])
            ),
            Effect.orDie,
            Effect.withSpan("WorkflowVersionRepo.insert")
          )
      } as const
    })
  }
) {}
