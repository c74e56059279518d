/**
 * One typed client of the contract per HTTP client (so per test server),
 * shared by every caller of a test file. `HttpApiClient.make(Api)` builds
 * every endpoint's encoders and decoders: 130-400 ms on a two-CPU machine,
 * and the tests made one for every account and, in loops, for every call.
 * Here a caller is only the headers it sends (its address, its token, its
 * workspace): each of its calls runs with them in a fiber-local value the
 * shared client's requests read.
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, FiberRef } from "effect"
import { Api } from "../../src/http/Api.js"

/** The headers of the caller whose call is running (none outside one). */
const callerHeaders = FiberRef.unsafeMake<Readonly<Record<string, string>>>({})

const makeShared = (http: HttpClient.HttpClient) =>
  HttpApiClient.makeWith(Api, {
    httpClient: http.pipe(
      HttpClient.mapRequestEffect((request) =>
        Effect.map(FiberRef.get(callerHeaders), (headers) => HttpClientRequest.setHeaders(request, headers))
      )
    )
  })

/** The typed client of the whole contract. */
export type ApiClient = Effect.Effect.Success<ReturnType<typeof makeShared>>

const shared = new WeakMap<HttpClient.HttpClient, ApiClient>()

type Endpoint = (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown, unknown>

const bound = (endpoint: Endpoint, headers: Readonly<Record<string, string>>): Endpoint => (...args) =>
  Effect.locally(endpoint(...args), callerHeaders, headers)

/** The typed client whose every call sends these headers (the shared client, built on first use). */
export const clientWithHeaders = (headers: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    let client = shared.get(http)
    if (client === undefined) {
      client = yield* makeShared(http)
      shared.set(http, client)
    }
    const caller: Record<string, unknown> = {}
    for (const [name, member] of Object.entries(client as Record<string, unknown>)) {
      if (typeof member === "function") {
        caller[name] = bound(member as Endpoint, headers)
        continue
      }
      const group: Record<string, Endpoint> = {}
      for (const [endpoint, call] of Object.entries(member as Record<string, Endpoint>)) {
        group[endpoint] = bound(call, headers)
      }
      caller[name] = group
    }
    return caller as ApiClient
  })
