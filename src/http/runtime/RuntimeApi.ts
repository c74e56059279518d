import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AssistantNotFound } from "../../domain/assistants/Assistant.js"
import { NotReady } from "../../domain/HttpErrors.js"
import { IdempotencyHeaders, IdempotencyKeyReused } from "../../domain/Idempotency.js"
import {
  RuntimeSessionEnded,
  RuntimeSessionId,
  RuntimeSessionNotFound,
  TurnFailed
} from "../../domain/runtime/RuntimeSession.js"
import { FlowNotRunnable, SessionStart } from "../../domain/runtime/SessionStart.js"
import { SessionTranscript } from "../../domain/runtime/Transcript.js"
import { SimulatedTurnReply, TurnInput } from "../../domain/runtime/Turn.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const id = HttpApiSchema.param("id", RuntimeSessionId)

/**
 * Assistant sessions for people who build them (`/v1/runtime/sessions`):
 * run the draft turn by turn, with the state and what the engine did after
 * each turn. Each turn is processed exactly once per `Idempotency-Key`.
 */
export class RuntimeApi extends HttpApiGroup.make("runtime")
  .add(
    HttpApiEndpoint.post("startSession", "/runtime/sessions")
      .setPayload(SessionStart)
      .addSuccess(SimulatedTurnReply, { status: 201 })
      .addError(AssistantNotFound)
      .addError(FlowNotRunnable)
      .annotate(OpenApi.Summary, "Start a test session on an Assistant's draft; answers the opening messages")
      .pipe(requires("runtime.simulate"))
  )
  .add(
    HttpApiEndpoint.post("sendTurn")`/runtime/sessions/${id}/turns`
      .setHeaders(IdempotencyHeaders)
      .setPayload(TurnInput)
      .addSuccess(SimulatedTurnReply)
      .addError(RuntimeSessionNotFound)
      .addError(RuntimeSessionEnded)
      .addError(IdempotencyKeyReused)
      .addError(TurnFailed)
      .addError(NotReady)
      .annotate(
        OpenApi.Summary,
        "Send the user's text or a button payload; a retry with the same Idempotency-Key answers the same reply"
      )
      .pipe(requires("runtime.simulate"))
  )
  .add(
    HttpApiEndpoint.get("getSession")`/runtime/sessions/${id}`
      .addSuccess(SessionTranscript)
      .addError(RuntimeSessionNotFound)
      .annotate(OpenApi.Summary, "Read a session (draft or public): its state and transcript")
      .pipe(requires("assistant.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Runtime")
  .annotate(
    OpenApi.Description,
    "Authenticated Assistant sessions on the draft, for testing: start, send turns (exactly once per Idempotency-Key), read state and transcript."
  )
{}
