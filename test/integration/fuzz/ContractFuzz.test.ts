/**
 * The contract fuzzed: every route of `/openapi.json` that is built (one that
 * answers 501 is skipped) gets generated bad input (see `FuzzRequests.ts`) as
 * every kind of caller, on a real node with real data, while `/health/live` is
 * probed beside it. Any 5xx but 501 (not built) and a typed 503 (not ready,
 * overloaded) fails, as does an answer slower than 5 s (a 504 means a handler
 * hung), a broken exchange, and a liveness probe left unanswered.
 *
 * Seeded: `PARLEY_FUZZ_SEED` (printed) reproduces a run; `PARLEY_FUZZ_ROUTE`
 * narrows it to routes whose name contains the text (each route's cases do
 * not depend on the others); `PARLEY_FUZZ_RUNS` scales the cases per route
 * and caller (the default keeps the run to about two minutes on two CPUs).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testServer } from "../../support/TestServer.js"
import { HOSTILE_INPUTS } from "./Adversarial.js"
import { casesOf, hashOf } from "./Dice.js"
import { type FuzzRequest, fuzzRequest, type RequestContext } from "./FuzzRequests.js"
import { watchLiveness } from "./Liveness.js"
import { type JsonSchema, type Operation, operationsOf, resolverOf } from "./OpenApiRoutes.js"
import { type RawOutcome, send } from "./RawHttp.js"
import { type Caller, type CallerName, makeWorld } from "./World.js"

const SEED = Number(process.env["PARLEY_FUZZ_SEED"] ?? 20_261_110)
const ROUTE = process.env["PARLEY_FUZZ_ROUTE"] ?? ""
const RUNS = Number(process.env["PARLEY_FUZZ_RUNS"] ?? 20)

/** The slowest answer a request may take. */
const DEADLINE_MILLIS = 5_000

/** Cases per route for each caller, as a share of `RUNS`: the owner reaches deepest, others mostly the gates. */
const SHARE: Record<CallerName, number> = {
  owner: 1,
  embed: 1,
  apiToken: 0.5,
  viewer: 0.35,
  stranger: 0.35,
  anonymous: 0.35
}

/** The callers worth trying on an operation. */
const callersOf = (operation: Operation): ReadonlyArray<CallerName> => {
  switch (operation.access) {
    case "user":
      return ["owner", "apiToken", "viewer", "stranger", "anonymous"]
    case "embed":
      return ["embed", "anonymous", "owner"]
    case "public":
      return ["anonymous", "owner"]
    case "other":
      return ["anonymous"]
  }
}

/**
 * Routes that end what other routes need (deletes, revocations, sign-outs) run last, the deepest paths first,
 * so an Assistant is deleted only after its nodes, intents and deployments were fuzzed.
 */
const ends = (operation: Operation) =>
  operation.method === "DELETE" || /\/(revoke|revoke-sessions|logout|disable)$/.test(operation.path)
const order = (a: Operation, b: Operation) =>
  Number(ends(a)) - Number(ends(b)) || (ends(a) ? b.path.split("/").length - a.path.split("/").length : 0)

/** A 503 Parley means: not ready yet, or shedding load. Anything else at 5xx is a fault. */
const acceptable = (outcome: RawOutcome): boolean => {
  if (outcome._tag === "NotSent") return true
  if (outcome._tag !== "Answered") return false
  if (outcome.status < 500 || outcome.status === 501) return true
  return outcome.status === 503 && /"_tag":"(NotReady|Overloaded)"/.test(outcome.text)
}

const describeOutcome = (outcome: RawOutcome) => {
  switch (outcome._tag) {
    case "Answered":
      return `${outcome.status} after ${outcome.millis} ms: ${outcome.text.slice(0, 300)}`
    case "TimedOut":
      return `no answer within ${outcome.millis} ms`
    case "Broken":
      return `broken exchange after ${outcome.millis} ms: ${outcome.error}`
    case "NotSent":
      return `not sent: ${outcome.error}`
  }
}

const preview = (request: FuzzRequest) => {
  const body = request.body === undefined ? "" : new TextDecoder().decode(request.body.subarray(0, 300))
  return `${request.method} ${request.target.slice(0, 300)}${request.target.length > 300 ? "…" : ""}` +
    ` [${request.mutations.join("; ")}]` +
    (body === "" ? "" : ` body(${request.body!.byteLength} bytes): ${JSON.stringify(body)}`)
}

layer(testServer(), { excludeTestServices: true, timeout: "120 seconds" })("contract fuzz", (it) => {
  it.effect(
    "no generated bad input gets a 5xx, a slow answer or a stalled node, from any caller",
    () =>
      Effect.gen(function*() {
        const started = performance.now()
        console.log(
          `contract fuzz: seed ${SEED} (PARLEY_FUZZ_SEED=${SEED} reproduces), runs ${RUNS}` +
            (ROUTE === "" ? "" : `, routes matching ${JSON.stringify(ROUTE)}`)
        )
        const world = yield* makeWorld
        const spec = yield* send(world.port, { method: "GET", target: "/openapi.json", headers: {} }, 30_000)
        if (spec._tag !== "Answered" || spec.status !== 200) return yield* Effect.dieMessage("no /openapi.json")
        // The answer keeps only its first 4 KB; the document is read whole here.
        const document = yield* Effect.promise(() =>
          fetch(`http://127.0.0.1:${world.port}/openapi.json`).then((response) =>
            response.json() as Promise<JsonSchema>
          )
        )
        const resolve = resolverOf(document)
        const context: RequestContext = { resolve, known: world.known, knownInPath: world.knownInPath }
        const callers = new Map<CallerName, Caller>(world.callers.map((caller) => [caller.name, caller]))
        const everyOperation = operationsOf(document).filter((operation) => operation.name.includes(ROUTE))

        const failures: Array<string> = []
        const statuses = new Map<number | string, number>()
        let sent = 0
        let slowest = { millis: 0, what: "" }

        const check = (label: string, request: FuzzRequest) =>
          Effect.map(send(world.port, request, DEADLINE_MILLIS), (outcome) => {
            sent++
            const key = outcome._tag === "Answered" ? outcome.status : outcome._tag
            statuses.set(key, (statuses.get(key) ?? 0) + 1)
            if ("millis" in outcome && outcome.millis > slowest.millis) {
              slowest = { millis: outcome.millis, what: `${label}: ${request.method} ${request.target.slice(0, 80)}` }
            }
            if (!acceptable(outcome)) failures.push(`${label}: ${describeOutcome(outcome)}\n    ${preview(request)}`)
            return outcome
          })

        // Which routes are built: a few valid-shaped requests each, as the caller the route is for; an unbuilt
        // route answers 501 once its caller and input pass.
        const built: Array<Operation> = []
        for (const operation of [...everyOperation].sort(order)) {
          const caller = callers.get(callersOf(operation)[0]!)!
          yield* world.revive(caller)
          // A route that ends something is asked about ids of nothing, so the probe ends nothing the fuzzing needs.
          const probeContext = ends(operation)
            ? { ...context, known: () => undefined, knownInPath: () => undefined }
            : context
          const probes = casesOf(
            SEED ^ hashOf(`probe ${operation.name}`),
            3,
            (dice) => fuzzRequest(dice, operation, caller, probeContext, { valid: true })
          )
          let unbuilt = false
          for (const [index, request] of probes.entries()) {
            const outcome = yield* check(`${operation.name} as ${caller.name} (seed ${SEED}, probe ${index})`, request)
            if (outcome._tag === "Answered" && outcome.status === 501) {
              unbuilt = true
              break
            }
          }
          if (!unbuilt) built.push(operation)
        }
        built.sort(order)
        console.log(`contract fuzz: ${built.length} of ${everyOperation.length} routes are built; fuzzing them`)

        const stopLiveness = yield* watchLiveness(world.port, DEADLINE_MILLIS)
        let followUps = 0
        for (const operation of built) {
          for (const name of callersOf(operation)) {
            const caller = callers.get(name)!
            yield* world.revive(caller)
            const label = `${operation.name} as ${name} (seed ${SEED}`
            const cases = casesOf(
              SEED ^ hashOf(`${operation.name} ${name}`),
              Math.max(1, Math.round(RUNS * SHARE[name])),
              (dice) => fuzzRequest(dice, operation, caller, context)
            )
            for (const [index, request] of cases.entries()) {
              const outcome = yield* check(`${label}, case ${index})`, request)
              // A write the owner's Assistant accepted may hold a hostile pattern: run the places patterns run.
              if (
                name === "owner" && followUps < 60 && operation.method !== "GET" &&
                operation.path.includes("{agent_id}") &&
                outcome._tag === "Answered" && outcome.status < 300
              ) {
                followUps++
                yield* followUp(world, check, `${label}, case ${index}, follow-up)`)
              }
            }
          }
        }
        const liveness = yield* stopLiveness

        const seconds = Math.round((performance.now() - started) / 1000)
        console.log(
          `contract fuzz: ${sent} requests (${followUps} follow-ups) in ${seconds} s; statuses ` +
            JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => String(a).localeCompare(String(b))))) +
            `; slowest ${slowest.millis} ms (${slowest.what}); liveness ${liveness.probes} probes, slowest ` +
            `${liveness.slowestMillis} ms, ${liveness.misses.length} missed`
        )
        const report = [
          ...failures,
          ...liveness.misses.map((miss) => `liveness probe missed ${miss}`)
        ]
        expect(
          report.length,
          `${report.length} failures (reproduce with PARLEY_FUZZ_SEED=${SEED}):\n${report.slice(0, 60).join("\n")}`
        ).toBe(0)
      }),
    { timeout: 600_000 }
  )
})

/**
 * After a write to the owner's Assistant: its analysis (which compiles every pattern), and a draft
 * conversation answering its pattern question with text that almost matches, as a visitor would.
 */
const followUp = (
  world: Effect.Effect.Success<typeof makeWorld>,
  check: (label: string, request: FuzzRequest) => Effect.Effect<RawOutcome>,
  label: string
) =>
  Effect.gen(function*() {
    const headers = { ...world.ownerHeaders(), "content-type": "application/json" }
    const json = (body: unknown) => new TextEncoder().encode(JSON.stringify(body))
    yield* check(label, {
      method: "GET",
      target: `/v1/agents/${world.agentId}/flow/analysis`,
      headers,
      mutations: ["follow-up analysis"]
    })
    const session = yield* check(label, {
      method: "POST",
      target: "/v1/runtime/sessions",
      headers,
      body: json({ agentId: world.agentId }),
      mutations: ["follow-up session"]
    })
    if (session._tag !== "Answered" || session.status !== 201) return
    const sessionId = /"sessionId":"([0-9a-f-]{36})"/.exec(session.text)?.[1]
    if (sessionId === undefined) return
    for (const text of [HOSTILE_INPUTS[0]!, HOSTILE_INPUTS[1]!]) {
      yield* check(label, {
        method: "POST",
        target: `/v1/runtime/sessions/${sessionId}/turns`,
        headers,
        body: json({ text }),
        mutations: [`follow-up turn of ${text.length} characters`]
      })
    }
  })
