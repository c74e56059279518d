/**
 * The record/replay provider: exchanges recorded against a fake provider are
 * replayed byte for byte with the fake gone, and a request never recorded is
 * a typed `not-recorded` failure. The file holds no API key.
 */
import { type HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Exit, Scope, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { readCassette, recording, replaying } from "../../../src/providers/llm/LlmCassette.js"
import { LlmClients } from "../../../src/providers/llm/LlmClients.js"
import { makeFakeAnthropic } from "../../support/FakeAnthropic.js"
import { answer } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { llmClientsWith, target } from "../../support/LlmTesting.js"

const KEY = "sk-record-secret-0123456789"

const cassetteFile = () => Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-cassette-")), "llm.jsonl")

/** Run `use` with LlmClients in `mode` on `file`, in its own scope (so the layer is built afresh). */
const withClients = <A, E>(mode: "record" | "replay", file: string, use: Effect.Effect<A, E, LlmClients>) =>
  use.pipe(
    Effect.provide(llmClientsWith({ PARLEY_LLM_CASSETTE: file, PARLEY_LLM_CASSETTE_MODE: mode })),
    Effect.scoped
  )

describe("record and replay", () => {
  it.scopedLive("a plain answer, a stream and an Anthropic exchange recorded, then replayed with the providers gone", () =>
    Effect.gen(function*() {
      const file = cassetteFile()
      const scope = yield* Scope.make()
      const openAi = yield* Scope.extend(makeFakeOpenAi, scope)
      const anthropic = yield* Scope.extend(makeFakeAnthropic, scope)
      openAi.respond(() => answer({ text: "recorded words here", usage: { input: 5, output: 3 } }))
      anthropic.respond(() => answer({ text: "recorded by claude" }))
      const gpt = target({ provider: "openai", model: "gpt-rec", baseUrl: `${openAi.origin}/v1` }, KEY)
      const claude = target({ provider: "anthropic", model: "claude-rec", baseUrl: anthropic.origin }, KEY)
      const run = Effect.gen(function*() {
        const clients = yield* LlmClients
        const plain = yield* clients.roundTrip({ ...gpt, prompt: "first" })
        const model = yield* clients.languageModel(gpt)
        const streamed = Chunk.toArray(yield* Stream.runCollect(model.streamText({ prompt: "second" })))
        const other = yield* clients.roundTrip({ ...claude, prompt: "third" })
        return {
          plain: { ...plain, latencyMs: 0 },
          deltas: streamed.flatMap((part) => part.type === "text-delta" ? [part.delta] : []),
          other: { ...other, latencyMs: 0 }
        }
      })
      const recorded = yield* withClients("record", file, run)
      expect(recorded.deltas).toEqual(["recorded ", "words ", "here"])
      yield* Scope.close(scope, Exit.void)
      const text = Fs.readFileSync(file, "utf8")
      expect(text.split("\n").filter((line) => line !== "")).toHaveLength(3)
      expect(text).not.toContain(KEY)

      const replayed = yield* withClients("replay", file, run)
      expect(replayed).toEqual(recorded)

      const unrecorded = yield* withClients(
        "replay",
        file,
        Effect.flatMap(LlmClients, (clients) => Effect.flip(clients.roundTrip({ ...gpt, prompt: "never asked" })))
      )
      expect(unrecorded.kind).toBe("not-recorded")
      expect(unrecorded.message).toMatch(
        /^no recorded exchange for POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/
      )
    }))

  it.scopedLive("replay gives the recorded bytes exactly (an SSE body included)", () =>
    Effect.gen(function*() {
      const file = cassetteFile()
      const fake = yield* makeFakeOpenAi
      fake.respond(() => answer({ text: "exact bytes, ünïcödé ✓" }))
      const network = yield* NodeHttpClient.make.pipe(Effect.provide(NodeHttpClient.agentLayer))
      const request = HttpClientRequest.post(`${fake.origin}/v1/chat/completions`).pipe(
        HttpClientRequest.bodyUnsafeJson({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] })
      )
      const bytes = (client: HttpClient.HttpClient) =>
        client.execute(request).pipe(
          Effect.flatMap((response) => response.arrayBuffer),
          Effect.map((buffer) => Buffer.from(buffer))
        )
      const live = yield* bytes(recording(network, file))
      const again = yield* bytes(replaying(readCassette(file)))
      expect(live.toString("utf8")).toContain("data: [DONE]")
      expect(again.equals(live)).toBe(true)
      expect(fake.requests).toHaveLength(1)
    }))
})
