/**
 * What the benchmarks that load Parley nodes share: the nodes' environment,
 * the conversations they load (an account, an echo Assistant, sessions
 * started round-robin on the nodes), and how a run reports the machine's
 * load and its verdicts.
 */
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import { echoAssistant, signUpAt, startSession } from "../../test/support/Conversations.js"
import type { Target } from "../turns/Load.js"

/**
 * Production-like logging: warnings and errors only, no line per request. One
 * master key for every node of a run, as they may share a database and its
 * sealed secrets.
 */
export const benchNodeEnv = (): Record<string, string> => ({
  PARLEY_LOG_LEVEL: "Warning",
  PARLEY_MASTER_KEY: Crypto.randomBytes(32).toString("base64")
})

/** An account, an echo Assistant and `sessions` sessions, started round-robin on the nodes. */
export const parleyTarget = (urls: ReadonlyArray<string>, sessions: number) =>
  Effect.gen(function*() {
    const token = yield* Effect.promise(() => signUpAt(urls[0]!))
    const agentId = yield* Effect.promise(() => echoAssistant(urls[0]!, token))
    const started = yield* Effect.forEach(
      Array.from({ length: sessions }, (_, i) => urls[i % urls.length]!),
      (url) => Effect.promise(() => startSession(url, token, agentId)),
      { concurrency: 20 }
    )
    return { urls, token, sessions: started } satisfies Target
  })

/** The 1-minute load average and the CPU count: how much else the machine was doing. */
export const loadAverage = () => `${Os.loadavg()[0]!.toFixed(2)} on ${Os.cpus().length} CPUs`

export const verdict = (pass: boolean) => (pass ? "PASS" : "FAIL")
