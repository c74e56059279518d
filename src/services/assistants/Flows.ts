/**
 * An Assistant's draft flow graph: read it, replace it whole. A write may
 * name the revision it is based on (`If-Match`, or `revision` in the body) and
 * is refused with a 409 when the draft has moved on; a graph that is not
 * well-formed is refused before anything is written.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect, Either } from "effect"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import { Flow, type FlowReplace } from "../../domain/assistants/Flow.js"
import { checkFlowStructure } from "../../domain/assistants/FlowStructure.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import type { Revision } from "../../domain/Revision.js"
import { FlowRepo } from "../../persistence/assistants/FlowRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"
import { Assistants, currentDate, orNotFound } from "./Assistants.js"

/**
 * The revision a write is based on, from the `If-Match` header or the body's
 * `revision` (either may be absent; when both are sent they must agree).
 */
export const baseRevision = (
  ifMatch: Revision | undefined,
  inBody: Revision | undefined
): Either.Either<Revision | undefined, ValidationFailed> =>
  ifMatch !== undefined && inBody !== undefined && ifMatch !== inBody
    ? Either.left(
      new ValidationFailed({
        message: `If-Match names revision ${ifMatch} and the body revision ${inBody}: send one, or the same in both`,
        fields: ["revision"]
      })
    )
    : Either.right(ifMatch ?? inBody)

export class Flows extends Effect.Service<Flows>()("parley/services/Flows", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* FlowRepo
    const assistants = yield* Assistants
    const log = yield* AuditLog

    /** The draft flow of an Assistant, with the draft's revision. */
    const get = Effect.fn("Flows.get")(function*(workspaceId: WorkspaceId, agentId: AssistantId) {
      return yield* repo.find(workspaceId, agentId).pipe(orNotFound(agentId))
    })

    /** Replace the draft's nodes, edges and sub-flows; the answer is the flow as stored, at its new revision. */
    const replace = Effect.fn("Flows.replace")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        input: FlowReplace,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const expected = yield* baseRevision(ifMatch, input.revision)
        const graph = yield* checkFlowStructure({ nodes: input.nodes, edges: input.edges, subflows: input.subflows })
        const at = yield* currentDate
        const revision = yield* assistants.advanceRevisionFrom(principal.workspaceId, agentId, expected, at)
        const before = yield* repo.size(principal.workspaceId, agentId)
        yield* repo.replace(principal.workspaceId, agentId, graph, at)
        yield* log.append(workspaceEntry(principal, origin, {
          action: "flow.replaced",
          resourceType: "flow",
          resourceId: agentId,
          summary: {
            before: { revision: revision - 1, ...before },
            after: {
              revision,
              nodes: graph.nodes.length,
              edges: graph.edges.length,
              subflows: graph.subflows.length
            }
          }
        }))
        return Flow.make({
          agentId,
          workspaceId: principal.workspaceId,
          ...graph,
          revision,
          updatedAt: DateTime.unsafeFromDate(at)
        })
      },
      transactional
    )

    return { get, replace } as const
  })
}) {}
