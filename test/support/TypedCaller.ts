/**
 * The typed client of the contract, acting as one caller: its own client
 * address (`X-Forwarded-For`, trusted by test servers), optionally a bearer
 * token, optionally a cookie jar that keeps what the server sets and sends it
 * back, as a browser would (with the `X-Requested-With` header a browser app
 * sends). Without a jar it is the file's shared client (`SharedClient`).
 */
import { type Cookies, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, type Ref } from "effect"
import { Api } from "../../src/http/Api.js"
import { clientWithHeaders } from "./SharedClient.js"

export interface TypedCaller {
  readonly address: string
  readonly token?: string | Redacted.Redacted<string>
  readonly jar?: Ref.Ref<Cookies.Cookies>
}

export const typedCaller = (caller: TypedCaller) => {
  const token = caller.token === undefined
    ? undefined
    : Redacted.isRedacted(caller.token)
    ? Redacted.value(caller.token)
    : caller.token
  const headers = {
    "x-forwarded-for": caller.address,
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
  }
  const jar = caller.jar
  // A cookie jar keeps what responses set: a client of its own (`SharedClient` shares only headers).
  return jar === undefined ? clientWithHeaders(headers) : HttpApiClient.make(Api, {
    transformClient: (client) =>
      client.pipe(
        HttpClient.mapRequest(HttpClientRequest.setHeaders({ ...headers, "x-requested-with": "XMLHttpRequest" })),
        HttpClient.withCookiesRef(jar)
      )
  })
}

/** The error a typed call failed with (its `_tag` and fields), or a test failure if it succeeded. */
export const failureOf = <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.flip(call).pipe(Effect.map((error) => error as E & { readonly _tag: string }))
