/**
 * Starting a conversation, for the editors' and the public route alike: the
 * flow's opening runs here, on the node that took the request, and the new
 * session is stored with its opening messages as turn 0. The session's
 * entity only ever sees turns.
 */
import { Effect, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { Variables } from "../../domain/assistants/Variable.js"
import { open } from "../../domain/runtime/engine/FlowEngine.js"
import type { FlowProgram } from "../../domain/runtime/engine/FlowProgram.js"
import { RuntimeSessionId } from "../../domain/runtime/RuntimeSession.js"
import { SimulatedTurnReply } from "../../domain/runtime/Turn.js"
import type { NewSession, RuntimeSessionRepo } from "../../persistence/runtime/RuntimeSessionRepo.js"
import { currentTraceId } from "./CurrentTrace.js"

const encodeReply = Schema.encode(SimulatedTurnReply)

/** Who the session is for and what it runs: everything of its row but what the opening decides. */
export type SessionOrigin = Omit<NewSession, "id" | "state" | "status" | "opening" | "traceId">

/** Run `program`'s opening with `variables`, store the session, and answer the opening as turn 0. */
export const openSession = (
  repo: RuntimeSessionRepo,
  program: FlowProgram,
  variables: Variables,
  origin: SessionOrigin
) =>
  Effect.gen(function*() {
    const step = yield* open(program, variables)
    const sessionId = RuntimeSessionId.make(uuidv7())
    const traceId = yield* currentTraceId
    const reply: SimulatedTurnReply = {
      sessionId,
      turn: 0,
      messages: step.messages,
      status: step.state.status,
      ended: step.state.status !== "active",
      traceId,
      state: step.state,
      debug: { path: step.path, nlu: step.nlu }
    }
    yield* repo.create({
      ...origin,
      id: sessionId,
      state: step.state,
      status: step.state.status,
      opening: yield* Effect.orDie(encodeReply(reply)),
      traceId
    })
    return reply
  })
