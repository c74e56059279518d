/**
 * Authentication of the public runtime routes: `Authorization: Bearer cdp_…`
 * and the request's `Origin`, checked by `EmbedTokens` (token, allowed
 * origins, rate limit); the caller it answers is the handlers'
 * `CurrentEmbedCaller`, and the request log names its workspace.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { annotateRequest } from "../../observability/RequestLog.js"
import { EmbedTokens } from "../../services/deployments/EmbedTokens.js"
import { EmbedAuthentication } from "./EmbedAuthentication.js"

export const EmbedAuthenticationLive = Layer.effect(
  EmbedAuthentication,
  Effect.gen(function*() {
    const tokens = yield* EmbedTokens
    return EmbedAuthentication.of({
      embedToken: (credential) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const caller = yield* tokens.authenticate(Redacted.value(credential).trim(), request.headers["origin"])
          yield* annotateRequest({ workspaceId: caller.workspaceId })
          return caller
        }).pipe(Effect.withSpan("EmbedAuthentication.authenticate"))
    })
  })
)
