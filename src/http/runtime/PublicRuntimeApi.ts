import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { NotReady } from "../../domain/HttpErrors.js"
import { IdempotencyHeaders, IdempotencyKeyReused } from "../../domain/Idempotency.js"
import {
  RuntimeSessionEnded,
  RuntimeSessionId,
  RuntimeSessionNotFound,
  TurnFailed
} from "../../domain/runtime/RuntimeSession.js"
import { PublicSessionStart } from "../../domain/runtime/SessionStart.js"
import { PublicSessionTranscript } from "../../domain/runtime/Transcript.js"
import { TurnInput, TurnReply } from "../../domain/runtime/Turn.js"
import { EmbedAuthentication } from "../middleware/EmbedAuthentication.js"

const id = HttpApiSchema.param("id", RuntimeSessionId)

/**
 * Sessions of deployed Assistants for embeds (`/v1/public/runtime/...`),
 * authenticated by the deployment's `cdp_` token from an allowed origin.
 * A session is only visible to the token of the deployment it runs on.
 */
export class PublicRuntimeApi extends HttpApiGroup.make("publicRuntime")
  .add(
    HttpApiEndpoint.post("startSession", "/public/runtime/sessions")
      .setPayload(PublicSessionStart)
      .addSuccess(TurnReply, { status: 201 })
      .addError(NotReady)
      .annotate(OpenApi.Summary, "Start a session on the token's deployment; answers the opening messages")
  )
  .add(
    HttpApiEndpoint.post("sendTurn")`/public/runtime/sessions/${id}/turns`
      .setHeaders(IdempotencyHeaders)
      .setPayload(TurnInput)
      .addSuccess(TurnReply)
      .addError(RuntimeSessionNotFound)
      .addError(RuntimeSessionEnded)
      .addError(IdempotencyKeyReused)
      .addError(TurnFailed)
      .addError(NotReady)
      .annotate(
        OpenApi.Summary,
        "Send the user's text or a button payload; a retry with the same Idempotency-Key answers the same reply"
      )
  )
  .add(
    HttpApiEndpoint.get("getSession")`/public/runtime/sessions/${id}`
      .addSuccess(PublicSessionTranscript)
      .addError(RuntimeSessionNotFound)
      .annotate(OpenApi.Summary, "Read a session's status and transcript, so a widget can reconnect")
  )
  .middleware(EmbedAuthentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Public runtime")
  .annotate(
    OpenApi.Description,
    "Deployed Assistants' sessions for web embeds: Authorization: Bearer cdp_… (a deployment's embed token), checked against its allowed origins and rate limit."
  )
{}
