import { Model, SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Assistant, AssistantId } from "../../domain/assistants/Assistant.js"
import { Flow } from "../../domain/assistants/Flow.js"
import { Intent } from "../../domain/assistants/Intent.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { EdgesJson, NodesJson, SubflowsJson } from "./FlowRepo.js"

/** An Assistant's draft as the runtime reads it: settings, flow and intents, all at one revision. */
export interface Draft {
  readonly assistant: Assistant
  readonly flow: Flow
  readonly intents: ReadonlyArray<Intent>
}

/** The intents, aggregated as JSON (camelCase keys, ISO times) and read as text. */
const IntentsJson = Schema.parseJson(Schema.Array(Intent.json))

const DraftRow = Schema.Struct({
  ...Assistant.fields,
  flowNodes: NodesJson,
  flowEdges: EdgesJson,
  flowSubflows: SubflowsJson,
  flowUpdatedAt: Model.DateTimeFromDate,
  intents: IntentsJson
})

const toDraft = (row: typeof DraftRow.Type): Draft => {
  const { flowEdges, flowNodes, flowSubflows, flowUpdatedAt, intents, ...settings } = row
  const trusted = { disableValidation: true }
  return {
    assistant: new Assistant(settings, trusted),
    flow: new Flow({
      agentId: settings.id,
      workspaceId: settings.workspaceId,
      nodes: flowNodes,
      edges: flowEdges,
      subflows: flowSubflows,
      revision: settings.revision,
      updatedAt: flowUpdatedAt
    }, trusted),
    intents: intents.map((intent) => new Intent(intent, trusted))
  }
}

const Key = Schema.Struct({ workspaceId: WorkspaceId, agentId: AssistantId })

/**
 * Whole drafts in one statement. One statement sees one snapshot of the
 * database, so the settings, the graph and the intents always belong to the
 * same revision, with no lock that would hold up an editor.
 */
export class DraftRepo extends Effect.Service<DraftRepo>()("parley/persistence/DraftRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = SqlSchema.findOne({
      Request: Key,
      Result: DraftRow,
      execute: ({ agentId, workspaceId }) =>
        sql`
          SELECT a.id, a.workspace_id, a.name, a.description, a.language, a.nlu_threshold, a.revision,
            a.created_at, a.updated_at,
            f.nodes::text AS flow_nodes, f.edges::text AS flow_edges, f.subflows::text AS flow_subflows,
            f.updated_at AS flow_updated_at,
            (SELECT coalesce(json_agg(json_build_object(
                'id', i.id, 'agentId', i.agent_id, 'name', i.name, 'description', i.description,
                'utterances', i.utterances, 'slots', i.slots, 'createdAt', i.created_at, 'updatedAt', i.updated_at
              ) ORDER BY i.created_at, i.id), '[]')::text
              FROM assistant_intents i WHERE i.workspace_id = a.workspace_id AND i.agent_id = a.id) AS intents
          FROM assistants a
          JOIN assistant_flows f ON f.agent_id = a.id AND f.workspace_id = a.workspace_id
          WHERE a.workspace_id = ${workspaceId} AND a.id = ${agentId}`
    })

    return {
      /** The draft of an Assistant of the workspace, or `None`. */
      find: (workspaceId: WorkspaceId, agentId: AssistantId) =>
        find({ workspaceId, agentId }).pipe(
          Effect.map(Option.map(toDraft)),
          Effect.orDie,
          Effect.withSpan("DraftRepo.find")
        )
    } as const
  })
}) {}
