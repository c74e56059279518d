/**
 * Graph workflows' rows (`workflows`): the draft (name, description, graph),
 * its revision, the status and the live version. The graph is read as text
 * and decoded here, so a row always answers as the domain's `Workflow`; a list
 * reads every column but the graph, and the graph's node count instead.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema, Struct } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { WorkflowId, WorkflowVersionNumber } from "../../domain/workflows/Ids.js"
import { Workflow, type WorkflowStatus } from "../../domain/workflows/Workflow.js"
import { WorkflowGraph } from "../../domain/workflows/WorkflowGraph.js"

/** The filters of the workflow list. */
export interface WorkflowFilter {
  readonly workspaceId: WorkspaceId
  readonly status?: WorkflowStatus | undefined
  readonly q?: string | undefined
}

/** A new workflow's row. */
export interface WorkflowInsert {
  readonly id: WorkflowId
  readonly workspaceId: WorkspaceId
  readonly name: string
  readonly description: string
  readonly graph: WorkflowGraph
  readonly at: Date
}

/** The draft fields a write replaces; absent ones stay. */
export interface WorkflowDraftWrite {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly graph?: WorkflowGraph | undefined
}

/** The graph as stored: its encoded JSON. */
export const graphJson = (graph: WorkflowGraph): string => JSON.stringify(Schema.encodeSync(WorkflowGraph)(graph))

const columns = `id, workspace_id, name, description, graph::text AS graph, revision, status, live_version,
  created_at, updated_at`
const summaryColumns = `id, workspace_id, name, description, revision, status, live_version, created_at, updated_at,
  jsonb_array_length(graph->'nodes') AS node_count`

const decodeWorkflows = Schema.decodeUnknown(Schema.Array(Workflow))
const workflowsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeWorkflows(rows.map((row) => ({ ...row, graph: JSON.parse(String(row["graph"])) })))

/** A row of the list: the workflow without its graph, and how many nodes the graph has. */
const SummaryRow = Schema.Struct({
  ...Struct.omit(Workflow.fields, "graph"),
  nodeCount: Schema.Number
})
const decodeSummaries = Schema.decodeUnknown(Schema.Array(SummaryRow))

export class WorkflowRepo extends Effect.Service<WorkflowRepo>()("parley/persistence/WorkflowRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const first = <E, R>(rows: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.map(Effect.flatMap(rows, workflowsOf), (found) => found[0])

    const listed = (filter: WorkflowFilter) =>
      sql.and([
        sql`workspace_id = ${filter.workspaceId}`,
        filter.status === undefined ? sql`true` : sql`status = ${filter.status}`,
        filter.q === undefined ? sql`true` : sql`strpos(lower(name), lower(${filter.q})) > 0`
      ])

    return {
      /** One page of the workspace's workflows, oldest first, without their graphs, and how many match. */
      page: (filter: WorkflowFilter, limit: number, offset: number) =>
        Effect.all([
          sql`SELECT ${sql.literal(summaryColumns)} FROM workflows WHERE ${listed(filter)}
            ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.flatMap(decodeSummaries)),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM workflows WHERE ${listed(filter)}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.page")
        ),
      /** A new workflow at revision 1, a draft with no live version. */
      insert: (row: WorkflowInsert) =>
        first(sql`INSERT INTO workflows (id, workspace_id, name, description, graph, revision, status, created_at,
            updated_at)
          VALUES (${row.id}, ${row.workspaceId}, ${row.name}, ${row.description}, ${graphJson(row.graph)}::jsonb, 1,
            'draft', ${row.at}, ${row.at})
          RETURNING ${select}`).pipe(
          Effect.flatMap((workflow) =>
            workflow === undefined ? Effect.dieMessage("the insert returned no row") : Effect.succeed(workflow)
          ),
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.insert")
        ),
      find: (workspaceId: WorkspaceId, id: WorkflowId) =>
        first(sql`SELECT ${select} FROM workflows WHERE workspace_id = ${workspaceId} AND id = ${id}`).pipe(
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.find")
        ),
      /** The workflow, its row locked until the transaction ends: draft writes and publishes take turns. */
      lock: (workspaceId: WorkspaceId, id: WorkflowId) =>
        first(sql`SELECT ${select} FROM workflows WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`).pipe(
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.lock")
        ),
      /** Replace the given draft fields and move the revision on by one (the row locked by the caller). */
      writeDraft: (workspaceId: WorkspaceId, id: WorkflowId, write: WorkflowDraftWrite, at: Date) => {
        const sets = [
          sql`revision = revision + 1`,
          sql`updated_at = ${at}`,
          ...(write.name === undefined ? [] : [sql`name = ${write.name}`]),
          ...(write.description === undefined ? [] : [sql`description = ${write.description}`]),
          ...(write.graph === undefined ? [] : [sql`graph = ${graphJson(write.graph)}::jsonb`])
        ]
        return first(sql`UPDATE workflows SET ${sql.csv(sets)} WHERE workspace_id = ${workspaceId} AND id = ${id}
          RETURNING ${select}`).pipe(Effect.orDie, Effect.withSpan("WorkflowRepo.writeDraft"))
      },
      /** Make a published version live (the draft's `updated_at` and revision are left alone). */
      setLive: (id: WorkflowId, version: WorkflowVersionNumber) =>
        sql`UPDATE workflows SET live_version = ${version}, status = 'live' WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.setLive")
        ),
      /** Delete the workflow and, by cascade, its versions; whether it existed. */
      remove: (workspaceId: WorkspaceId, id: WorkflowId) =>
        sql`DELETE FROM workflows WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.remove")
        ),
      /** The chains with a run not yet ended whose steps run the workflow, by slug. */
      runningChains: (workspaceId: WorkspaceId, id: WorkflowId) =>
        sql<{ chainSlug: string }>`SELECT DISTINCT chain_slug FROM chain_runs
          WHERE workspace_id = ${workspaceId} AND status IN ('queued', 'running', 'paused')
            AND steps @> ${JSON.stringify([{ workflowId: id }])}::jsonb
          ORDER BY chain_slug`.pipe(
          Effect.map((rows) => rows.map((row) => row.chainSlug)),
          Effect.orDie,
          Effect.withSpan("WorkflowRepo.runningChains")
        )
    } as const
  })
}) {}
