/**
 * The workflow simulator (DESIGN.md §8): sessions that run a workflow's draft
 * conversationally, for the people who build it. A start checks the input
 * against the trigger's declared inputs (a `400` naming each field that does
 * not fit), stores the session with a snapshot of the draft graph and its
 * revision (later edits do not reach it), and has the session's
 * `WorkflowSimSession` entity run the opening; a turn is sent to that entity,
 * wherever in the cluster it lives, exactly once per Idempotency-Key (a
 * request without one gets one made here, and then cannot be repeated
 * safely). History lists a workflow's sessions, newest first.
 *
 * The cluster's transient answers (a repeat of a turn still running, a reply
 * interrupted by a shard moving) make it send the same message again, as
 * `SendTurn.ts` does for Assistants (`Resend.ts`); after `DELIVERY_LIMIT` the caller hears
 * `503 NotReady` (the turn goes on regardless). A delivery holds a permit of
 * the node's turns gate (`Admission`) until it ends, whatever becomes of the
 * request that sent it.
 */
import { Clock, Effect, Either, Fiber, Option } from "effect"
import * as Crypto from "node:crypto"
import { v7 as uuidv7 } from "uuid"
import { WorkflowSimSession } from "../../actors/WorkflowSimSession.js"
import { canonicalJson } from "../../domain/CanonicalJson.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import type { JsonValue } from "../../domain/Json.js"
import { type ListParams, pageOf } from "../../domain/Pagination.js"
import { indexGraph } from "../../domain/workflows/engine/GraphIndex.js"
import { validateRunInput } from "../../domain/workflows/engine/RunInput.js"
import { type WorkflowId, WorkflowSimSessionId } from "../../domain/workflows/Ids.js"
import { WorkflowNotFound } from "../../domain/workflows/Workflow.js"
import type { WorkflowGraph } from "../../domain/workflows/WorkflowGraph.js"
import { WorkflowSimSessionNotFound, type WorkflowSimSessionStart } from "../../domain/workflows/WorkflowSimSession.js"
import type { WorkflowSimTurnRequest } from "../../domain/workflows/WorkflowSimTurn.js"
import { WorkflowRepo } from "../../persistence/workflows/WorkflowRepo.js"
import { WorkflowSimSessionRepo } from "../../persistence/workflows/WorkflowSimSessionRepo.js"
import { Admission } from "../Admission.js"
import { currentTraceId } from "../runtime/CurrentTrace.js"
import { type ClusterFailure, resentWhileTransient } from "../runtime/Resend.js"

/**
 * The input checked against the trigger's declared inputs: a `400` naming
 * each input that does not fit (`input.<name>`). A graph that cannot run
 * (no trigger) passes here: the opening fails and says why.
 */
const checkInput = (graph: WorkflowGraph, input: JsonValue) => {
  const trigger = indexGraph(graph).trigger
  if (Either.isLeft(trigger)) return Effect.void
  const checked = validateRunInput(trigger.right, input)
  if (Either.isRight(checked)) return Effect.void
  const declared = trigger.right.data.inputs
  const fields = declared.filter((variable) =>
    Either.isLeft(validateRunInput({ ...trigger.right, data: { ...trigger.right.data, inputs: [variable] } }, input))
  ).map((variable) => `input.${variable.name}`)
  return Effect.fail(new ValidationFailed({ message: `The trigger refused the ${checked.left.message}`, fields }))
}

const bodyHashOf = (request: WorkflowSimTurnRequest) =>
  Crypto.createHash("sha256").update(canonicalJson(request)).digest("hex")

export class WorkflowSimulator extends Effect.Service<WorkflowSimulator>()(
  "parley/services/workflows/WorkflowSimulator",
  {
    scoped: Effect.gen(function*() {
      const client = yield* WorkflowSimSession.client
      const admission = yield* Admission
      // Deliveries belong to the node, not to requests: a client that leaves does not stop its turn.
      const scope = yield* Effect.scope
      const workflows = yield* WorkflowRepo
      const sessions = yield* WorkflowSimSessionRepo

      const send = <A, E>(sent: Effect.Effect<A, E | ClusterFailure>, busy: string) =>
        admission.admit(resentWhileTransient(sent, busy)).pipe(Effect.forkIn(scope), Effect.flatMap(Fiber.join))

      const workflowOf = (principal: Principal, workflowId: WorkflowId) =>
        Effect.flatMap(
          workflows.find(principal.workspaceId, workflowId),
          (workflow) =>
            workflow === undefined
              ? Effect.fail(
                new WorkflowNotFound({ workflowId, message: `No workflow with the id ${workflowId} in this workspace` })
              )
              : Effect.succeed(workflow)
        )

      const start = Effect.fn("WorkflowSimulator.start")(function*(
        principal: Principal,
        workflowId: WorkflowId,
        request: typeof WorkflowSimSessionStart.Type
      ) {
        const workflow = yield* workflowOf(principal, workflowId)
        yield* checkInput(workflow.graph, request.input)
        const id = WorkflowSimSessionId.make(uuidv7())
        yield* sessions.insert({
          id,
          workspaceId: principal.workspaceId,
          workflowId,
          revision: workflow.revision,
          graph: workflow.graph,
          input: request.input,
          startedBy: actorOf(principal),
          at: new Date(yield* Clock.currentTimeMillis)
        })
        const turn = yield* send(
          client(id).Open({ workspaceId: principal.workspaceId, traceId: yield* currentTraceId }),
          "The session's opening is still running"
        ).pipe(
          // Only a workflow deleted meanwhile takes the session along.
          Effect.catchTag(
            "WorkflowSimSessionNotFound",
            () =>
              workflowOf(principal, workflowId).pipe(Effect.zipRight(Effect.dieMessage("the started session vanished")))
          )
        )
        const session = yield* sessions.find(principal.workspaceId, id)
        if (Option.isNone(session)) return yield* Effect.dieMessage("the started session vanished")
        return { session: session.value, turn }
      })

      const turn = Effect.fn("WorkflowSimulator.turn")(function*(
        principal: Principal,
        sessionId: WorkflowSimSessionId,
        request: WorkflowSimTurnRequest,
        idempotencyKey: string | undefined
      ) {
        if (Option.isNone(yield* sessions.find(principal.workspaceId, sessionId))) {
          return yield* new WorkflowSimSessionNotFound({
            sessionId,
            message: `No simulator session ${sessionId} in this workspace`
          })
        }
        return yield* send(
          client(sessionId).Turn({
            workspaceId: principal.workspaceId,
            message: request,
            idempotencyKey: idempotencyKey ?? uuidv7(),
            bodyHash: bodyHashOf(request),
            traceId: yield* currentTraceId
          }),
          "This turn is still being processed; retry with the same key"
        )
      })

      const list = Effect.fn("WorkflowSimulator.list")(
        function*(principal: Principal, workflowId: WorkflowId, params: ListParams) {
          yield* workflowOf(principal, workflowId)
          const { limit, offset } = pageOf(params)
          const { items, total } = yield* sessions.page(principal.workspaceId, workflowId, limit, offset)
          return { items, total, limit, offset }
        }
      )

      return { start, turn, list } as const
    }),
    dependencies: [WorkflowRepo.Default, WorkflowSimSessionRepo.Default]
  }
) {}
