/**
 * Another service talking to Parley through the typed client that the
 * contract alone gives: `import { Api } from "parley/api"` pulls in no server
 * code, and every call and error is typed.
 *
 *   node --import tsx examples/typed-client.ts http://localhost:8080
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { Console, Effect } from "effect"
import { Api } from "parley/api"

/** Ask a Parley node whether it is ready, and for its Assistants. */
export const checkParley = (baseUrl: string) =>
  Effect.gen(function*() {
    const parley = yield* HttpApiClient.make(Api, { baseUrl })
    const ready = yield* parley.health.ready()
    const assistants = yield* parley.assistants.list({ urlParams: { limit: 5 } }).pipe(
      Effect.map((page) => ({ _tag: "Listed", total: page.total }) as const),
      // Typed errors: the contract says which ones a call can meet.
      Effect.catchTags({
        NotImplemented: (error) => Effect.succeed({ _tag: "NotBuiltYet", route: error.route } as const),
        Unauthenticated: (error) => Effect.succeed({ _tag: "SignInFirst", message: error.message } as const)
      })
    )
    return { ready: ready.status, checks: Object.keys(ready.checks), assistants }
  })

if (/typed-client\.[jt]s$/.test(process.argv[1] ?? "")) {
  const baseUrl = process.argv[2] ?? "http://localhost:8080"
  checkParley(baseUrl).pipe(
    Effect.flatMap((answer) => Console.log(JSON.stringify(answer, null, 2))),
    Effect.provide(FetchHttpClient.layer),
    Effect.runPromise
  )
}
