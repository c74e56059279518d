/**
 * Sends turns to their sessions' entities on behalf of requests, detached from
 * them: once a turn is handed over it runs to its end (and its answer is
 * waited for) whatever becomes of the request, so a client that gives up never
 * cuts a turn short. A repeat of a turn that this node is still delivering
 * joins it instead of sending it again, and takes no room in the turns gate
 * (it gives back what the front door held for it); a repeat that reaches
 * another node is answered by the cluster from the stored message (see
 * `SendTurn.ts`). A delivery holds a permit of the node's admission control
 * (`Admission`) for as long as it runs, not as long as its request: a node
 * that is running all the turns it admits refuses the next at once, before it
 * enters a mailbox.
 */
import { EntityAddress, EntityId, MessageStorage, Sharding } from "@effect/cluster"
import { Deferred, Effect, Exit, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import { RuntimeSession, turnMessageKey, type TurnPayload } from "../../actors/RuntimeSession.js"
import { NotReady, type Overloaded } from "../../domain/HttpErrors.js"
import type { RuntimeSessionId } from "../../domain/runtime/RuntimeSession.js"
import { turnBodyHash } from "../../domain/runtime/TurnBodyHash.js"
import { Admission } from "../Admission.js"
import { currentTraceId } from "./CurrentTrace.js"
import { sendTurn, type TurnDelivered } from "./SendTurn.js"

/**
 * A turn as a caller sends it: who speaks, the input and the request's
 * Idempotency-Key (none: one is made here, so the turn still runs once).
 */
export interface TurnRequest extends Pick<TurnPayload, "workspaceId" | "deploymentId" | "input"> {
  readonly idempotencyKey: string | undefined
}

type Outcome = Effect.Effect.Success<TurnDelivered>
type Refusal = Effect.Effect.Error<TurnDelivered> | Overloaded

/** A delivery cut short by the node stopping: its message stays stored and runs on the next owner. */
const stopping = Exit.fail(new NotReady({ message: "This node is stopping; retry with the same key" }))

export class TurnSender extends Effect.Service<TurnSender>()("parley/services/runtime/TurnSender", {
  scoped: Effect.gen(function*() {
    const client = yield* RuntimeSession.client
    const sharding = yield* Sharding.Sharding
    const storage = yield* MessageStorage.MessageStorage
    const admission = yield* Admission
    // Deliveries belong to the node, not to requests: they end with the node.
    const scope = yield* Effect.scope
    const delivering = new Map<string, Deferred.Deferred<Outcome, Refusal>>()

    /** Lets the owner read the turn's message again (see `RELEASE_AFTER`); nothing when it is not stored. */
    const release = (sessionId: RuntimeSessionId, payload: TurnPayload) =>
      Effect.gen(function*() {
        const entityId = EntityId.make(sessionId)
        const requestId = yield* storage.requestIdForPrimaryKey({
          address: EntityAddress.make({
            entityType: RuntimeSession.type,
            entityId,
            shardId: sharding.getShardId(entityId, RuntimeSession.getShardGroup(entityId))
          }),
          tag: "Turn",
          id: turnMessageKey(payload)
        })
        if (Option.isSome(requestId)) yield* sharding.reset(requestId.value)
      }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("Could not release a turn's message", cause)))

    /** The delivery of this turn on this node: the running one, or one started now (no yield in between). */
    const delivery = (sessionId: RuntimeSessionId, payload: TurnPayload) =>
      Effect.fiberIdWith((fiberId) => {
        const key = `${sessionId}/${turnMessageKey(payload)}`
        const running = delivering.get(key)
        if (running !== undefined) return Effect.as(admission.forgoTurn, running)
        const done = Deferred.unsafeMake<Outcome, Refusal>(fiberId)
        delivering.set(key, done)
        return admission.admit(sendTurn(sessionId, client(sessionId).Turn(payload), release(sessionId, payload))).pipe(
          Effect.onExit((exit) => {
            delivering.delete(key)
            return Deferred.done(done, Exit.isInterrupted(exit) ? stopping : exit)
          }),
          Effect.interruptible,
          Effect.forkIn(scope),
          Effect.as(done)
        )
      }).pipe(Effect.uninterruptible)

    return {
      /** Sends the turn (or joins its delivery in progress) and waits for its answer. */
      send: Effect.fn("TurnSender.send")(function*(sessionId: RuntimeSessionId, request: TurnRequest) {
        const payload: TurnPayload = {
          ...request,
          idempotencyKey: request.idempotencyKey ?? uuidv7(),
          bodyHash: turnBodyHash(request.input),
          traceId: yield* currentTraceId
        }
        return yield* Effect.flatMap(delivery(sessionId, payload), Deferred.await)
      }),
      /** How many deliveries are in progress on this node. */
      inProgress: Effect.sync(() => delivering.size)
    } as const
  })
}) {}
