import { FetchHttpClient, HttpApiClient, type HttpClient, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { tryParley } from "../../../examples/typed-client.js"
import { Api } from "../../../src/http/Api.js"
import { testServer } from "../../support/TestServer.js"

const _client = HttpApiClient.make(Api)
/** The typed client of the whole contract needs nothing but an HttpClient (a schema with an open context would show here, at tsc). */
export const contractClientNeedsOnlyHttpClient: [
  Exclude<Effect.Effect.Context<typeof _client>, HttpClient.HttpClient>
] extends [never] ? true : never = true

layer(testServer(), { excludeTestServices: true })("the typed-client example", (it) => {
  it.effect("signs up, reads the account and lists through HttpApiClient.make(Api)", () =>
    Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      const address = server.address as HttpServer.TcpAddress
      const answer = yield* tryParley(`http://127.0.0.1:${address.port}`, "grace@example.com").pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      expect(answer).toEqual({
        ready: "ready",
        email: "grace@example.com",
        workspaces: ["grace-s-workspace (owner)"],
        assistants: { _tag: "Listed", total: 0 },
        workflows: { _tag: "Listed", total: 0 }
      })
    }))
})
