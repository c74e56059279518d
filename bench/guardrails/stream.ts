/**
 * What the output guardrails add to a streamed answer, measured on this
 * machine in one run:
 *
 * 1. End to end: one node whose model is a fake OpenAI server that waits
 *    200 ms, then streams its answer word by word (all words written at
 *    once, as `bench:agents` does); two agents on that node, one without
 *    guardrails (the baseline) and one with output rules on every PII type,
 *    a blocked topic and a maximum length. Streamed playground turns, one at
 *    a time, alternating between the two: from the fake's first token to
 *    the client's first `message.delta`. The difference of the p50s is the
 *    delay the output rules add. Target: <= 5 ms.
 * 2. In process: the output guard alone (`OutputGuard.ts`) on the same
 *    answer pushed word by word, per answer.
 *
 * The guard holds back the word being written and, before it, words that
 * may begin personal data (see `OutputGuard.ts`): with a provider that
 * pauses between tokens, a first word held back waits for the next token.
 * Here the words arrive together, so the figure is the guard's own cost.
 *
 *   npx tsx bench/guardrails/stream.ts   (or npm run bench:guardrails)
 */
import { Effect } from "effect"
import * as Os from "node:os"
import { PiiType } from "../../src/domain/aiAgents/GuardrailRule.js"
import type { SnapshotGuardrail } from "../../src/domain/aiAgents/guardrails/GuardrailCheck.js"
import { outputGuard } from "../../src/domain/aiAgents/guardrails/OutputGuard.js"
import { agentTarget, fakeModelNode, firstDeltaGap, post } from "../support/Agents.js"
import { loadAverage, verdict } from "../support/Parley.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"

const TURNS = 40
const WARM_UP = 5
const DELAY_MS = 200
const ANSWER = "Your order A1 left the warehouse this morning; write to help@example.com or call " +
  "+44 20 7946 0958 if it has not arrived by Friday."

const PII_TYPES = PiiType.literals

const RULES = [
  { name: "pii", stage: "output", rule: { kind: "pii", types: PII_TYPES }, action: "redact" },
  { name: "topics", stage: "output", rule: { kind: "blocked-topics", topics: ["crypto wallet"] }, action: "block" },
  { name: "length", stage: "output", rule: { kind: "max-length", maxCharacters: 4000 }, action: "redact" }
]

const ms = (value: number) => `${value.toFixed(2)} ms`

const endToEnd = Effect.gen(function*() {
  const { databaseUrl, fake, url } = yield* fakeModelNode(ANSWER, DELAY_MS)
  const plain = yield* agentTarget(url, databaseUrl, 2, "plain")
  const guarded = yield* agentTarget(url, databaseUrl, 2, "guarded")
  for (const rule of RULES) {
    yield* Effect.promise(() =>
      post(`${url}/v1/ai-agents/guarded/guardrails`, rule, { authorization: `Bearer ${guarded.token}` })
    )
  }
  const gaps = yield* Effect.promise(async () => {
    const out = { plain: [] as Array<number>, guarded: [] as Array<number> }
    for (let n = 0; n < WARM_UP + TURNS; n++) {
      for (const [name, agent] of [["plain", plain], ["guarded", guarded]] as const) {
        const gap = await firstDeltaGap(fake, agent, `${name}-${n}`, `where is A${n}?`, agent.conversations[n % 2]!)
        if (n >= WARM_UP) out[name].push(gap)
      }
    }
    return out
  })
  const p50 = { plain: percentile(gaps.plain, 50), guarded: percentile(gaps.guarded, 50) }
  console.log(
    `1. end to end (${TURNS} streamed turns each, alternating, after ${WARM_UP} each to warm up): ` +
      `provider's first token -> client's first message.delta`
  )
  console.log(`   without guardrails (baseline): p50 ${ms(p50.plain)}, p90 ${ms(percentile(gaps.plain, 90))}`)
  console.log(`   with output rules:             p50 ${ms(p50.guarded)}, p90 ${ms(percentile(gaps.guarded, 90))}`)
  const added = p50.guarded - p50.plain
  console.log(`   added by the output rules: p50 ${ms(added)} ${verdict(added <= 5)} (<= 5 ms)`)
})

const inProcess = Effect.sync(() => {
  const guardrails = RULES.map((rule, n) => ({
    ...rule,
    id: `00000000-0000-7000-8000-00000000000${n}`,
    enabled: true,
    message: null,
    rule: { ...rule.rule, redaction: "placeholder", detection: "keywords" }
  })) as unknown as ReadonlyArray<SnapshotGuardrail>
  const words = ANSWER.match(/\S+\s*/g)!
  const run = () => {
    const guard = outputGuard(guardrails)!
    let first = -1
    const started = performance.now()
    for (const word of words) {
      if (guard.push(word) !== "" && first < 0) first = performance.now() - started
    }
    guard.end()
    return { first, whole: performance.now() - started, shown: guard.shown() }
  }
  for (let n = 0; n < 200; n++) run()
  const runs = Array.from({ length: 2000 }, run)
  const firsts = runs.map((r) => r.first)
  const wholes = runs.map((r) => r.whole)
  console.log(
    `2. in process: the output guard on the ${ANSWER.length}-character answer pushed word by word (${words.length} ` +
      `words), 2,000 runs: first text out after p50 ${ms(percentile(firsts, 50))}, whole answer p50 ${
        ms(percentile(wholes, 50))
      }, p99 ${ms(percentile(wholes, 99))}`
  )
  console.log(`   shown: ${runs[0]!.shown}`)
})

const main = Effect.gen(function*() {
  console.log(
    `guardrail stream benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}; ` +
      `load average ${loadAverage()}`
  )
  yield* inProcess
  yield* Effect.scoped(endToEnd)
  console.log(`\nload average at the end: ${loadAverage()}`)
})

runBench(main)
