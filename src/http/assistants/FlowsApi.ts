import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AssistantId, AssistantNotFound } from "../../domain/assistants/Assistant.js"
import {
  Flow,
  FlowDeletion,
  FlowEdgeWritten,
  FlowNodeWritten,
  FlowReplace,
  InvalidFlow
} from "../../domain/assistants/Flow.js"
import { FlowAnalysis } from "../../domain/assistants/FlowAnalysis.js"
import { FlowEdgeCreate, FlowEdgeIdTaken, FlowEdgeNotFound } from "../../domain/assistants/FlowEdge.js"
import { FlowExport, FlowExportParams } from "../../domain/assistants/FlowExport.js"
import { FlowEdgeId, FlowNodeId } from "../../domain/assistants/FlowIds.js"
import { FlowNodeCreate, FlowNodeIdTaken, FlowNodeNotFound, FlowNodePatch } from "../../domain/assistants/FlowNode.js"
import {
  RepairFlowRequest,
  RepairFlowResult,
  RepairNodeRequest,
  RepairNodeResult
} from "../../domain/assistants/FlowRepair.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const agentId = HttpApiSchema.param("agent_id", AssistantId)
const nodeId = HttpApiSchema.param("node_id", FlowNodeId)
const edgeId = HttpApiSchema.param("edge_id", FlowEdgeId)

/**
 * An Assistant's draft flow graph (`/v1/agents/{agent_id}/flow/...`): read,
 * replace, edit node by node and edge by edge, analyse, repair, export.
 * Every write answers the draft's new revision and accepts `If-Match`.
 */
export class FlowsApi extends HttpApiGroup.make("flows")
  .add(
    HttpApiEndpoint.get("getFlow")`/agents/${agentId}/flow`
      .addSuccess(Flow.json)
      .addError(AssistantNotFound)
      .annotate(OpenApi.Summary, "Read the draft flow")
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.put("replaceFlow")`/agents/${agentId}/flow`
      .setHeaders(IfMatchHeaders)
      .setPayload(FlowReplace)
      .addSuccess(Flow.json)
      .addError(AssistantNotFound)
      .addError(InvalidFlow)
      .addError(ValidationFailed)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Replace the draft flow's nodes, edges and sub-flows")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.post("createNode")`/agents/${agentId}/flow/nodes`
      .setHeaders(IfMatchHeaders)
      .setPayload(FlowNodeCreate)
      .addSuccess(FlowNodeWritten, { status: 201 })
      .addError(AssistantNotFound)
      .addError(InvalidFlow)
      .addError(FlowNodeIdTaken)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Add a node")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.patch("updateNode")`/agents/${agentId}/flow/nodes/${nodeId}`
      .setHeaders(IfMatchHeaders)
      .setPayload(FlowNodePatch)
      .addSuccess(FlowNodeWritten)
      .addError(AssistantNotFound)
      .addError(FlowNodeNotFound)
      .addError(InvalidFlow)
      .addError(ValidationFailed)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Move, rename or change a node's data")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.del("deleteNode")`/agents/${agentId}/flow/nodes/${nodeId}`
      .setHeaders(IfMatchHeaders)
      .addSuccess(FlowDeletion)
      .addError(AssistantNotFound)
      .addError(FlowNodeNotFound)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Delete a node and its edges")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.post("createEdge")`/agents/${agentId}/flow/edges`
      .setHeaders(IfMatchHeaders)
      .setPayload(FlowEdgeCreate)
      .addSuccess(FlowEdgeWritten, { status: 201 })
      .addError(AssistantNotFound)
      .addError(InvalidFlow)
      .addError(FlowEdgeIdTaken)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Add an edge")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.del("deleteEdge")`/agents/${agentId}/flow/edges/${edgeId}`
      .setHeaders(IfMatchHeaders)
      .addSuccess(FlowDeletion)
      .addError(AssistantNotFound)
      .addError(FlowEdgeNotFound)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Delete an edge")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.get("getAnalysis")`/agents/${agentId}/flow/analysis`
      .addSuccess(FlowAnalysis)
      .addError(AssistantNotFound)
      .annotate(OpenApi.Summary, "Analyse the draft: graph and intent findings, NLU accuracy")
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.post("repairNode")`/agents/${agentId}/flow/repair-node`
      .setHeaders(IfMatchHeaders)
      .setPayload(RepairNodeRequest)
      .addSuccess(RepairNodeResult)
      .addError(AssistantNotFound)
      .addError(FlowNodeNotFound)
      .addError(ValidationFailed)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Fix one node's problems and answer the change made")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.post("repairFlow")`/agents/${agentId}/flow/repair`
      .setHeaders(IfMatchHeaders)
      .setPayload(RepairFlowRequest)
      .addSuccess(RepairFlowResult)
      .addError(AssistantNotFound)
      .addError(ValidationFailed)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Fix every repairable problem of the draft in one revision and answer the change made")
      .annotate(
        OpenApi.Description,
        "Repairs every node `repair-node` would, in one revision: missing fallbacks lead to a \"sorry\" end, dead ends to an end node that reads no variable the path leaves unset, several edges taking one route become a choice between them, dangling edges are dropped and a router's misspelt intents re-pointed. A repair that would leave more findings, or a new error, is not made. The answer gives the diff, the findings fixed, every finding left and whether the draft is now deployable; nothing is written when there is nothing to fix."
      )
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.get("exportFlow")`/agents/${agentId}/flow/export`
      .setUrlParams(FlowExportParams)
      .addSuccess(FlowExport)
      .addError(AssistantNotFound)
      .annotate(OpenApi.Summary, "Export the draft as draw.io, Mermaid or a Parley document")
      .pipe(requires("assistant.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Assistant flows")
  .annotate(
    OpenApi.Description,
    "An Assistant's draft flow graph: nodes, edges and sub-flows, edited with optimistic concurrency (If-Match), analysed, repaired and exported."
  )
{}
