/**
 * The typed client of the contract (`HttpApiClient.make(Api)`), acting as one
 * caller: its own client address (`X-Forwarded-For`, trusted by test
 * servers), optionally a bearer token, optionally a cookie jar that keeps what
 * the server sets and sends it back, as a browser would (with the
 * `X-Requested-With` header a browser app sends).
 */
import { type Cookies, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, type Ref } from "effect"
import { Api } from "../../src/http/Api.js"

export interface TypedCaller {
  readonly address: string
  readonly token?: string | Redacted.Redacted<string>
  readonly jar?: Ref.Ref<Cookies.Cookies>
}

export const typedCaller = (caller: TypedCaller) =>
  HttpApiClient.make(Api, {
    transformClient: (client) => {
      let configured = client.pipe(
        HttpClient.mapRequest(HttpClientRequest.setHeader("x-forwarded-for", caller.address))
      )
      if (caller.token !== undefined) {
        const token = Redacted.isRedacted(caller.token) ? Redacted.value(caller.token) : caller.token
        configured = configured.pipe(HttpClient.mapRequest(HttpClientRequest.bearerToken(token)))
      }
      if (caller.jar !== undefined) {
        configured = configured.pipe(
          HttpClient.mapRequest(HttpClientRequest.setHeader("x-requested-with", "XMLHttpRequest")),
          HttpClient.withCookiesRef(caller.jar)
        )
      }
      return configured
    }
  })

/** The error a typed call failed with (its `_tag` and fields), or a test failure if it succeeded. */
export const failureOf = <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.flip(call).pipe(Effect.map((error) => error as E & { readonly _tag: string }))
