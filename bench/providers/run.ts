/**
 * The providers benchmark: what Parley adds to a model call over the
 * provider's own time. A fake OpenAI API (test/support/FakeOpenAi.ts) on
 * loopback answers every chat completion after a fixed delay; each sample is
 * a pair, taken back to back: the call through Parley's `LlmClients` (the
 * circuit breaker, the adapter, the outbound-guarded HTTP client, decoding
 * into @effect/ai parts) and a bare `undici` request of the same bytes on a
 * keep-alive pool (its JSON parsed). The overhead is the median of the
 * pairs' differences. Streaming: how long after the fake writes a stream's
 * first event the caller holds its first part, through Parley and through
 * the bare request (first body chunk). The CPU time this process spends on
 * each side of a pair is printed too: on a loaded machine the wall-clock
 * difference multiplies the CPU work by the contention, the CPU time does
 * not. Fake and clients share this process,
 * so both sides read one clock (performance.now()). No database.
 * Run with `npm run bench:providers` (N=<samples> to change the count).
 */
import { Agent, request } from "@effect/platform-node/Undici"
import { Effect, Layer, ManagedRuntime, Option, Stream } from "effect"
import { cpus, loadavg } from "node:os"
import { LlmClients } from "../../src/providers/llm/LlmClients.js"
import { answer, type FakeLlmServer } from "../../test/support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../test/support/FakeOpenAi.js"
import { connection, llmClientsWith } from "../../test/support/LlmTesting.js"

const N = Number(process.env.N ?? 400)
const WARMUP = 50
const DELAY_MS = 20
const TEXT = "The quick brown fox jumps over the lazy dog, and then it answers your question in a few words."

const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
const ms = (value: number) => `${value.toFixed(3)} ms`

const main = Effect.gen(function*() {
  const fake: FakeLlmServer = yield* makeFakeOpenAi
  fake.respond(() => answer({ text: TEXT, usage: { input: 30, output: 22 }, delayMs: DELAY_MS }))
  const runtime = ManagedRuntime.make(llmClientsWith({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1" }).pipe(Layer.orDie))
  yield* Effect.addFinalizer(() => Effect.promise(() => runtime.dispose()))
  const target = {
    connection: connection({ provider: "openai-compatible", model: "bench-model", baseUrl: `${fake.origin}/v1` }),
    apiKey: Option.none()
  }
  const model = yield* Effect.promise(() =>
    runtime.runPromise(Effect.flatMap(LlmClients, (clients) => clients.languageModel(target)))
  )
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 })
  const bare = async (body: string) => {
    const response = await request(`${fake.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      dispatcher
    })
    return response.body.json()
  }

  // Plain calls, in pairs.
  const parleyPlain = () => runtime.runPromise(model.generateText({ prompt: "Say something" }))
  yield* Effect.promise(() => parleyPlain())
  const plainBody = JSON.stringify(fake.requests.at(-1)!.body)
  const plain = {
    parley: [] as Array<number>,
    bare: [] as Array<number>,
    overhead: [] as Array<number>,
    cpuOverhead: [] as Array<number>
  }
  const cpuMillis = () => {
    const { system, user } = process.cpuUsage()
    return (system + user) / 1000
  }
  for (let index = 0; index < WARMUP + N; index++) {
    const [first, firstCpu] = [performance.now(), cpuMillis()]
    const reply = yield* Effect.promise(() => parleyPlain())
    const [second, secondCpu] = [performance.now(), cpuMillis()]
    yield* Effect.promise(() => bare(plainBody))
    const [third, thirdCpu] = [performance.now(), cpuMillis()]
    if (reply.text !== TEXT) throw new Error(`unexpected reply ${reply.text}`)
    if (index < WARMUP) continue
    plain.parley.push(second - first)
    plain.bare.push(third - second)
    plain.overhead.push(second - first - (third - second))
    plain.cpuOverhead.push(secondCpu - firstCpu - (thirdCpu - secondCpu))
  }

  // Streams: the first part (Parley) or body chunk (bare) after the fake wrote its first event.
  const parleyFirst = () =>
    runtime.runPromise(Effect.gen(function*() {
      let firstAt = 0
      yield* model.streamText({ prompt: "Stream something" }).pipe(
        Stream.runForEach(() => Effect.sync(() => (firstAt ||= performance.now())))
      )
      return firstAt
    }))
  yield* Effect.promise(() => parleyFirst())
  const streamBody = JSON.stringify(fake.requests.at(-1)!.body)
  const bareFirst = async () => {
    const response = await request(`${fake.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: streamBody,
      dispatcher
    })
    let firstAt = 0
    for await (const _chunk of response.body) firstAt ||= performance.now()
    return firstAt
  }
  const stream = { parley: [] as Array<number>, bare: [] as Array<number> }
  for (let index = 0; index < WARMUP + N; index++) {
    const parleyAt = yield* Effect.promise(() => parleyFirst())
    const parleySent = fake.firstByteSentAt.at(-1)!
    const bareAt = yield* Effect.promise(() => bareFirst())
    const bareSent = fake.firstByteSentAt.at(-1)!
    if (index < WARMUP) continue
    stream.parley.push(parleyAt - parleySent)
    stream.bare.push(bareAt - bareSent)
  }
  yield* Effect.promise(() => dispatcher.close())

  console.log(
    `providers benchmark: ${cpus().length} CPUs (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}, ` +
      `load average ${loadavg().map((load) => load.toFixed(2)).join(" ")}`
  )
  console.log(
    `fake OpenAI chat completions on loopback, ${DELAY_MS} ms fixed delay; N=${N} pairs after ${WARMUP} warm-up pairs\n`
  )
  console.log("| measure | Parley p50 | Parley p99 | bare undici p50 | bare undici p99 | target | verdict |")
  console.log("|---|---|---|---|---|---|---|")
  const overheadP50 = quantile(plain.overhead, 0.5)
  console.log(
    `| plain call, total | ${ms(quantile(plain.parley, 0.5))} | ${ms(quantile(plain.parley, 0.99))} | ` +
      `${ms(quantile(plain.bare, 0.5))} | ${ms(quantile(plain.bare, 0.99))} | | |`
  )
  console.log(
    `| plain call, overhead (pair difference) | ${ms(overheadP50)} | ${ms(quantile(plain.overhead, 0.99))} | | | ` +
      `p50 ≤ 1 ms | ${overheadP50 <= 1 ? "PASS" : "FAIL"} |`
  )
  console.log(
    `| plain call, CPU time over the bare call's (this process: client and fake) | ` +
      `${ms(quantile(plain.cpuOverhead, 0.5))} | ${ms(quantile(plain.cpuOverhead, 0.99))} | | | | |`
  )
  const firstP50 = quantile(stream.parley, 0.5)
  console.log(
    `| stream, first event sent → first part held | ${ms(firstP50)} | ${ms(quantile(stream.parley, 0.99))} | ` +
      `${ms(quantile(stream.bare, 0.5))} | ${ms(quantile(stream.bare, 0.99))} | p50 ≤ 2 ms | ${
        firstP50 <= 2 ? "PASS" : "FAIL"
      } |`
  )
})

Effect.runPromise(Effect.scoped(main)).catch((error) => {
  console.error(error)
  process.exit(1)
})
