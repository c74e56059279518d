/**
 * A real Parley node for a test file: the production composition
 * (`ParleyLive`) on a fresh PostgreSQL database, listening on a random
 * loopback port, with an `HttpClient` aimed at it and the typed client.
 */
import { HttpApiClient, HttpClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer } from "effect"
import { Api } from "../../src/http/Api.js"
import { ParleyLive } from "../../src/MainLive.js"
import { freshDatabase } from "./TestDatabase.js"

/** Settings the test server runs with, beyond its database. */
export type TestSettings = Record<string, string>

/** Configuration from `settings`, then the environment. */
export const configFrom = (settings: TestSettings) =>
  ConfigProvider.fromJson({ PARLEY_LOG_LEVEL: "Warning", ...settings }).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )

/** A node on its own fresh database; `settings` override configuration. */
export const testServer = (settings: TestSettings = {}) =>
  Layer.unwrapScoped(
    Effect.map(freshDatabase, ({ url }) =>
      ParleyLive.pipe(
        Layer.provideMerge(NodeHttpServer.layerTest),
        Layer.provide(Layer.setConfigProvider(configFrom({ DATABASE_URL: url, ...settings })))
      ))
  )

/** The typed client of the whole contract, aimed at the test server. */
export const typedClient = HttpApiClient.make(Api)

/** A plain client aimed at the test server that never fails on a status, for raw HTTP assertions. */
export const rawClient = Effect.map(HttpClient.HttpClient, (client) => client)
