/**
 * Another service talking to Parley through the typed client that the
 * contract alone gives: `import { Api } from "parley/api"` pulls in no server
 * code, and every call and error is typed. It signs up an account, reads it
 * back with the access token, and asks for the workspace's Assistants.
 *
 *   node --import tsx examples/typed-client.ts http://localhost:8080
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Console, Effect, Redacted } from "effect"
import { Api } from "parley/api"

/** Sign up on a Parley node, then act as the new user. */
export const tryParley = (baseUrl: string, email: string) =>
  Effect.gen(function*() {
    const anonymous = yield* HttpApiClient.make(Api, { baseUrl })
    const ready = yield* anonymous.health.ready()
    const signedIn = yield* anonymous.auth.signup({
      payload: { email, password: Redacted.make("correct horse battery staple") }
    })
    // The same contract, with the access token on every request.
    const parley = yield* HttpApiClient.make(Api, {
      baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(Redacted.value(signedIn.accessToken)))
    })
    const me = yield* parley.account.me()
    const assistants = yield* parley.assistants.list({ urlParams: { limit: 5 } }).pipe(
      Effect.map((page) => ({ _tag: "Listed", total: page.total }) as const)
    )
    const workflows = yield* parley.workflows.list({ urlParams: { limit: 5 } }).pipe(
      Effect.map((page) => ({ _tag: "Listed", total: page.total }) as const),
      // Typed errors: the contract says which ones a call can meet.
      Effect.catchTag("NotImplemented", (error) => Effect.succeed({ _tag: "NotBuiltYet", route: error.route } as const))
    )
    return {
      ready: ready.status,
      email: me.user.email,
      workspaces: me.memberships.map((membership) => `${membership.workspace.slug} (${membership.role})`),
      assistants,
      workflows
    }
  })

if (/typed-client\.[jt]s$/.test(process.argv[1] ?? "")) {
  const baseUrl = process.argv[2] ?? "http://localhost:8080"
  tryParley(baseUrl, `example-${Date.now()}@example.com`).pipe(
    Effect.flatMap((answer) => Console.log(JSON.stringify(answer, null, 2))),
    Effect.provide(FetchHttpClient.layer),
    Effect.runPromise
  )
}
