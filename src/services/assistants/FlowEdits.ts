/**
 * Editing an Assistant's draft flow one node or edge at a time, and
 * repairing one node. Every edit locks the Assistant's row, reads the draft
 * under the lock, checks the revision the client based it on (`If-Match`, or
 * `revision` in a repair's body: 409 when stale), applies a pure edit,
 * refuses a graph that would not be well-formed or would pass the flow's
 * limits (400 `InvalidFlow`, nothing written), writes the graph at the next
 * revision and audits it (ids and sizes, never content). A repair that
 * finds nothing to change writes nothing and keeps the revision.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { isDeployable } from "../../domain/assistants/analysis/AnalyzeFlow.js"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import { addEdge, removeEdge } from "../../domain/assistants/editing/EdgeEdits.js"
import { checkFlowLimits } from "../../domain/assistants/editing/GraphLimits.js"
import { addNode, patchNode, removeNode } from "../../domain/assistants/editing/NodeEdits.js"
import type { FlowEdgeCreate } from "../../domain/assistants/FlowEdge.js"
import type { FlowEdgeId, FlowNodeId } from "../../domain/assistants/FlowIds.js"
import { type FlowNodeCreate, FlowNodeNotFound, type FlowNodePatch } from "../../domain/assistants/FlowNode.js"
import type {
  RepairFlowRequest,
  RepairFlowResult,
  RepairNodeRequest,
  RepairNodeResult
} from "../../domain/assistants/FlowRepair.js"
import { checkFlowStructure, type FlowGraph } from "../../domain/assistants/FlowStructure.js"
import { repairFlow } from "../../domain/assistants/repair/RepairFlow.js"
import { repairNode } from "../../domain/assistants/repair/RepairNode.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import { AssistantRepo } from "../../persistence/assistants/AssistantRepo.js"
import { FlowRepo } from "../../persistence/assistants/FlowRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"
import { Assistants, currentDate, orNotFound } from "./Assistants.js"
import { baseRevision } from "./Flows.js"

export class FlowEdits extends Effect.Service<FlowEdits>()("parley/services/FlowEdits", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* FlowRepo
    const assistantRepo = yield* AssistantRepo
    const assistants = yield* Assistants
    const log = yield* AuditLog

    /** The draft read under the Assistant's row lock, at the revision the client expects (when it says). */
    const lockedDraft = (principal: Principal, agentId: AssistantId, expected: Revision | undefined) =>
      Effect.gen(function*() {
        yield* assistantRepo.lockById(principal.workspaceId, agentId).pipe(orNotFound(agentId))
        const draft = yield* assistants.draftOf(principal.workspaceId, agentId)
        const actual = draft.flow.revision
        if (expected !== undefined && expected !== actual) {
          return yield* new RevisionConflict({
            expected,
            actual,
            message: `The draft is at revision ${actual}, not ${expected}: read it again and reapply the change`
          })
        }
        return draft
      })

    /** Write `graph` as the draft at the next revision, audited as `action`; the new revision. */
    const save = (
      principal: Principal,
      agentId: AssistantId,
      from: Revision,
      graph: FlowGraph,
      origin: Origin,
      action: string,
      summary: Record<string, unknown>
    ) =>
      Effect.gen(function*() {
        yield* checkFlowStructure(graph)
        yield* checkFlowLimits(graph)
        const at = yield* currentDate
        const revision = yield* assistants.advanceRevisionFrom(principal.workspaceId, agentId, from, at)
        yield* repo.replace(principal.workspaceId, agentId, graph, at)
        yield* log.append(workspaceEntry(principal, origin, {
          action,
          resourceType: "flow",
          resourceId: agentId,
          summary: {
            before: { revision: from },
            after: { revision, nodes: graph.nodes.length, edges: graph.edges.length, ...summary }
          }
        }))
        return revision
      })

    /** What a repair could not save: a flow at its size limit (a repair only adds fresh ids in existing sub-flows). */
    const unsaved = (invalid: { readonly message: string }) =>
      Effect.fail(new ValidationFailed({ message: `The repair cannot be saved: ${invalid.message}` }))

    const createNode = Effect.fn("FlowEdits.createNode")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        input: FlowNodeCreate,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const { flow } = yield* lockedDraft(principal, agentId, ifMatch)
        const { graph, node } = yield* addNode(flow, input)
        const revision = yield* save(principal, agentId, flow.revision, graph, origin, "flow.node.created", {
          nodeId: node.id,
          type: node.type
        })
        return { revision, node }
      },
      transactional
    )

    const updateNode = Effect.fn("FlowEdits.updateNode")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        nodeId: FlowNodeId,
        patch: FlowNodePatch,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const { flow } = yield* lockedDraft(principal, agentId, ifMatch)
        const { graph, node } = yield* patchNode(flow, nodeId, patch)
        const revision = yield* save(principal, agentId, flow.revision, graph, origin, "flow.node.updated", {
          nodeId,
          fields: Object.keys(patch).sort()
        })
        return { revision, node }
      },
      transactional
    )

    const deleteNode = Effect.fn("FlowEdits.deleteNode")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        nodeId: FlowNodeId,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const { flow } = yield* lockedDraft(principal, agentId, ifMatch)
        const { graph, removedEdgeIds } = yield* removeNode(flow, nodeId)
        const revision = yield* save(principal, agentId, flow.revision, graph, origin, "flow.node.deleted", {
          nodeId,
          removedEdgeIds
        }).pipe(
          // A delete only removes: the graph stays well-formed and within its limits.
          Effect.catchTag("InvalidFlow", (invalid) => Effect.die(invalid))
        )
        return { revision, removedNodeIds: [nodeId], removedEdgeIds }
      },
      transactional
    )

    const createEdge = Effect.fn("FlowEdits.createEdge")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        input: FlowEdgeCreate,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const { flow } = yield* lockedDraft(principal, agentId, ifMatch)
        const { edge, graph } = yield* addEdge(flow, input)
        const revision = yield* save(principal, agentId, flow.revision, graph, origin, "flow.edge.created", {
          edgeId: edge.id,
          source: edge.source,
          target: edge.target,
          kind: edge.kind
        })
        return { revision, edge }
      },
      transactional
    )

    const deleteEdge = Effect.fn("FlowEdits.deleteEdge")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        edgeId: FlowEdgeId,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const { flow } = yield* lockedDraft(principal, agentId, ifMatch)
        const graph = yield* removeEdge(flow, edgeId)
        const revision = yield* save(principal, agentId, flow.revision, graph, origin, "flow.edge.deleted", { edgeId })
          .pipe(Effect.catchTag("InvalidFlow", (invalid) => Effect.die(invalid)))
        return { revision, removedNodeIds: [] as ReadonlyArray<FlowNodeId>, removedEdgeIds: [edgeId] }
      },
      transactional
    )

    const repair = Effect.fn("FlowEdits.repairNode")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        request: RepairNodeRequest,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const expected = yield* baseRevision(ifMatch, request.revision)
        const { flow, intents } = yield* lockedDraft(principal, agentId, expected)
        const repaired = repairNode(flow, intents, request.nodeId)
        if (repaired === undefined) {
          return yield* new FlowNodeNotFound({
            nodeId: request.nodeId,
            message: `The flow has no node ${request.nodeId}`
          })
        }
        const { diff, fixed, remaining } = repaired
        const revision = repaired.changed
          ? yield* save(principal, agentId, flow.revision, repaired.graph, origin, "flow.node.repaired", {
            nodeId: request.nodeId,
            fixed: fixed.map((finding) => finding.code),
            addedNodeIds: diff.addedNodes.map((node) => node.id),
            removedEdgeIds: diff.removedEdges.map((edge) => edge.id),
            addedEdgeIds: diff.addedEdges.map((edge) => edge.id),
            changedEdgeIds: diff.changedEdges.map((change) => change.after.id)
          }).pipe(Effect.catchTag("InvalidFlow", unsaved))
          : flow.revision
        return { revision, changed: repaired.changed, diff, fixed, remaining } satisfies RepairNodeResult
      },
      transactional
    )

    const repairAll = Effect.fn("FlowEdits.repairFlow")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        request: RepairFlowRequest,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const expected = yield* baseRevision(ifMatch, request.revision)
        const { flow, intents } = yield* lockedDraft(principal, agentId, expected)
        const { changed, diff, fixed, graph, remaining } = repairFlow(flow, intents)
        const revision = changed
          ? yield* save(principal, agentId, flow.revision, graph, origin, "flow.repaired", {
            fixed: fixed.length,
            remaining: remaining.length,
            addedNodes: diff.addedNodes.length,
            changedNodes: diff.changedNodes.length,
            addedEdges: diff.addedEdges.length,
            removedEdges: diff.removedEdges.length,
            changedEdges: diff.changedEdges.length
          }).pipe(Effect.catchTag("InvalidFlow", unsaved))
          : flow.revision
        return {
          revision,
          changed,
          diff,
          fixed,
          remaining,
          deployable: isDeployable(remaining)
        } satisfies RepairFlowResult
      },
      transactional
    )

    return { createNode, updateNode, deleteNode, createEdge, deleteEdge, repair, repairFlow: repairAll } as const
  })
}) {}
