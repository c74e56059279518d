/**
 * A real Parley node for a test file: the production composition
 * (`ParleyLive`) on a fresh PostgreSQL database, listening on a random
 * loopback port (the node's own server, front door included), with an
 * `HttpClient` aimed at it and the typed client.
 */
import { HttpApiClient, HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, Logger, LogLevel } from "effect"
import { Api } from "../../src/http/Api.js"
import { frontDoorServer } from "../../src/http/FrontDoor.js"
import { ParleyLive } from "../../src/MainLive.js"
import * as DevMailer from "../../src/providers/DevMailer.js"
import { PasswordHashParameters } from "../../src/services/PasswordHasher.js"
import { freePort } from "./ParleyProcess.js"
import { freshDatabase } from "./TestDatabase.js"

/** Settings the test server runs with, beyond its database; they override the environment. */
export type TestSettings = Record<string, string>

/** A log entry the server wrote. */
export interface LogEntry {
  readonly level: string
  readonly message: unknown
  readonly annotations: Record<string, unknown>
}

/** The scrypt parameters of test servers' password hashes. */
export const TEST_PASSWORD_HASH = { ln: 10, r: 8, p: 1 } as const

/** The master key of test servers: fixed, so no test writes a generated one into the working directory. */
export const TEST_MASTER_KEY = "dGVzdC1tYXN0ZXIta2V5LW9mLXRoaXJ0eS10d28tYnl0ZXMhIQ=="

/** Configuration from `settings`, then the environment. */
export const configFrom = (settings: TestSettings) =>
  ConfigProvider.fromJson(settings).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))

const quiet = Logger.minimumLogLevel(LogLevel.Warning)

/** A logger that keeps what it is given in `entries`. */
export const capturingLogger = (entries: Array<LogEntry>) =>
  Layer.merge(
    Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ annotations, logLevel, message }) => {
        entries.push({
          level: logLevel.label,
          message: Array.isArray(message) && message.length === 1 ? message[0] : message,
          annotations: Object.fromEntries(annotations)
        })
      })
    ),
    Logger.minimumLogLevel(LogLevel.Info)
  )

/** The node's server with its front door (`FrontDoor.ts`) on a random port, and a client aimed at it. */
const serverWithFrontDoor = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(frontDoorServer({ port: 0 }))
)

export interface TestServerOptions {
  /** `false`: a plain Node server, where the app's middleware alone decides what the front door would. */
  readonly frontDoor?: boolean
}

/**
 * A node on `DATABASE_URL` from `settings`, or on a fresh database of its
 * own; its cluster runner listens on a free loopback port, so nodes of one
 * database form a cluster and test files never meet.
 */
export const testServer = (
  settings: TestSettings = {},
  logging: Layer.Layer<never> = quiet,
  options: TestServerOptions = {}
) =>
  Layer.unwrapScoped(
    Effect.zipWith(
      "DATABASE_URL" in settings ? Effect.succeed({ url: settings["DATABASE_URL"]! }) : freshDatabase,
      Effect.promise(freePort),
      ({ url }, runnerPort) =>
        ParleyLive.pipe(
          Layer.provideMerge(options.frontDoor === false ? NodeHttpServer.layerTest : serverWithFrontDoor),
          // The development mailer: tests read the links it records from its outbox.
          Layer.provideMerge(DevMailer.layer),
          // Cheaper password hashes than OWASP's (about 3 ms against 300): the suite signs up thousands
          // of accounts. The hasher's own tests and the spawned nodes keep OWASP's.
          Layer.provide(Layer.succeed(PasswordHashParameters, TEST_PASSWORD_HASH)),
          Layer.provide(Layer.setConfigProvider(configFrom({
            // Tests speak for many clients: each sends its own X-Forwarded-For.
            PARLEY_TRUSTED_PROXY_HOPS: "1",
            PARLEY_MASTER_KEY: TEST_MASTER_KEY,
            PARLEY_RUNNER_HOST: "127.0.0.1",
            PARLEY_RUNNER_PORT: String(runnerPort),
            ...settings,
            DATABASE_URL: url
          }))),
          Layer.provide(logging)
        )
    )
  )

/** The typed client of the whole contract, aimed at the test server. */
export const typedClient = HttpApiClient.make(Api)
