import { Model, SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AssistantId } from "../../domain/assistants/Assistant.js"
import { Flow, FlowEdges, FlowNodes, Subflows } from "../../domain/assistants/Flow.js"
import type { FlowGraph } from "../../domain/assistants/FlowStructure.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { Revision } from "../../domain/Revision.js"

/**
 * The graph's columns as JSON text. They are read as text (`::text`) because
 * the client turns snake_case keys into camelCase at any depth of a `jsonb`
 * value, and a graph holds keys of its users' choosing (slot variables, tool
 * arguments, JSON values) that must come back exactly as they went in.
 */
export const NodesJson = Schema.parseJson(FlowNodes)
export const EdgesJson = Schema.parseJson(FlowEdges)
export const SubflowsJson = Schema.parseJson(Subflows)

/** A flow as the database holds it (its graph as JSON text), decoded to the model. */
export const FlowFromRow = Schema.transform(
  Schema.Struct({
    agentId: AssistantId,
    workspaceId: WorkspaceId,
    nodes: NodesJson,
    edges: EdgesJson,
    subflows: SubflowsJson,
    revision: Revision,
    updatedAt: Model.DateTimeFromDate
  }),
  Schema.typeSchema(Flow),
  { strict: true, decode: (row) => new Flow(row, { disableValidation: true }), encode: (flow) => ({ ...flow }) }
)

/** How big a graph is, as the audit log summarises it. */
export interface FlowSize {
  readonly nodes: number
  readonly edges: number
  readonly subflows: number
}

const Key = Schema.Struct({ workspaceId: WorkspaceId, agentId: AssistantId })

const encodeGraph = (graph: FlowGraph) =>
  Effect.all({
    nodes: Schema.encode(NodesJson)(graph.nodes),
    edges: Schema.encode(EdgesJson)(graph.edges),
    subflows: Schema.encode(SubflowsJson)(graph.subflows)
  })

/** The draft flow graph of each Assistant, one row per Assistant; its revision is the Assistant's. */
export class FlowRepo extends Effect.Service<FlowRepo>()("parley/persistence/FlowRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = SqlSchema.findOne({
      Request: Key,
      Result: FlowFromRow,
      execute: ({ agentId, workspaceId }) =>
        sql`SELECT f.agent_id, f.workspace_id, f.nodes::text AS nodes, f.edges::text AS edges,
              f.subflows::text AS subflows, a.revision, f.updated_at
            FROM assistant_flows f JOIN assistants a ON a.id = f.agent_id AND a.workspace_id = f.workspace_id
            WHERE f.workspace_id = ${workspaceId} AND f.agent_id = ${agentId}`
    })

    const write = (workspaceId: WorkspaceId, agentId: AssistantId, graph: FlowGraph, now: Date, insert: boolean) =>
      Effect.flatMap(encodeGraph(graph), ({ edges, nodes, subflows }) =>
        insert
          ? sql`INSERT INTO assistant_flows (agent_id, workspace_id, nodes, edges, subflows, updated_at)
                VALUES (${agentId}, ${workspaceId}, ${nodes}::jsonb, ${edges}::jsonb, ${subflows}::jsonb, ${now})`
          : sql`UPDATE assistant_flows
                SET nodes = ${nodes}::jsonb, edges = ${edges}::jsonb, subflows = ${subflows}::jsonb, updated_at = ${now}
                WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId}`)

    return {
      /** The flow with the draft's revision; `None` when the workspace has no such Assistant. */
      find: (workspaceId: WorkspaceId, agentId: AssistantId) =>
        find({ workspaceId, agentId }).pipe(Effect.orDie, Effect.withSpan("FlowRepo.find")),
      /** How many nodes, edges and sub-flows the graph has, without reading it. */
      size: (workspaceId: WorkspaceId, agentId: AssistantId) =>
        sql<FlowSize>`
          SELECT jsonb_array_length(nodes) AS nodes, jsonb_array_length(edges) AS edges,
            jsonb_array_length(subflows) AS subflows
          FROM assistant_flows WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId}`.pipe(
          Effect.map((rows) => rows[0] ?? { nodes: 0, edges: 0, subflows: 0 }),
          Effect.orDie,
          Effect.withSpan("FlowRepo.size")
        ),
      /** The flow of a new Assistant. */
      insert: (workspaceId: WorkspaceId, agentId: AssistantId, graph: FlowGraph, now: Date) =>
        write(workspaceId, agentId, graph, now, true).pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("FlowRepo.insert")
        ),
      /** Replace the graph (the caller has moved the revision on, in the same transaction). */
      replace: (workspaceId: WorkspaceId, agentId: AssistantId, graph: FlowGraph, now: Date) =>
        write(workspaceId, agentId, graph, now, false).pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("FlowRepo.replace")
        )
    } as const
  })
}) {}
