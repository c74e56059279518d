/**
 * The whole Parley contract: every route, its schemas, its errors and its
 * security. It imports nothing of the server, so another service builds a
 * typed client with `HttpApiClient.make(Api)` from `parley/api`.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { InternalError, MalformedBody, NotImplemented, PayloadTooLarge, RateLimited, Timeout } from "../domain/HttpErrors.js"
import { AssistantsApi } from "./assistants/AssistantsApi.js"
import { HealthApi } from "./health/HealthApi.js"

export class Api extends HttpApi.make("parley")
  .add(HealthApi)
  .add(AssistantsApi)
  .addError(MalformedBody)
  .addError(PayloadTooLarge)
  .addError(RateLimited)
  .addError(NotImplemented)
  .addError(Timeout)
  .addError(InternalError)
  .annotate(OpenApi.Title, "Parley")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "An open back end for building, publishing and running conversational software."
  )
{}
