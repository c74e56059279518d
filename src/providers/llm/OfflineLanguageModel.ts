/**
 * The offline provider: a LanguageModel that needs no network and answers
 * what its script says, the same for the same conversation. It speaks the
 * whole @effect/ai protocol (text, stream deltas, tool calls, usage), so an
 * agent runs end to end in tests and in the keyless embedded default.
 */
import type { LanguageModel, Response } from "@effect/ai"
import { Effect, Stream } from "effect"
import { makeLanguageModel } from "./FastLanguageModel.js"
import { messageText, type OfflineReply, OfflineScript } from "./OfflineScript.js"

const tokens = (text: string) => Math.ceil(text.length / 4)

/** Split a text into word-sized deltas (each keeps its trailing space), as a real stream would. */
const wordDeltas = (text: string): ReadonlyArray<string> => text.match(/\S+\s*|\s+/g) ?? []

const usageOf = (options: LanguageModel.ProviderOptions, reply: OfflineReply, text: string) =>
  reply.usage ?? {
    inputTokens: tokens(options.prompt.content.map(messageText).join("\n")),
    outputTokens: tokens(text) + tokens((reply.toolCalls ?? []).map((call) => JSON.stringify(call.params)).join(""))
  }

const finishOf = (options: LanguageModel.ProviderOptions, reply: OfflineReply, text: string) => {
  const usage = usageOf(options, reply, text)
  return {
    type: "finish",
    reason: (reply.toolCalls ?? []).length > 0 ? "tool-calls" : "stop",
    usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens }
  } satisfies Response.FinishPartEncoded
}

const toolCallParts = (reply: OfflineReply): Array<Response.ToolCallPartEncoded> =>
  (reply.toolCalls ?? []).map((call, index) => ({
    type: "tool-call",
    id: `offline_call_${index + 1}`,
    name: call.name,
    params: call.params,
    providerExecuted: false
  }))

/** The offline LanguageModel answering as `model`, with the script in force. */
export const makeOfflineLanguageModel = (model: string) =>
  Effect.gen(function*() {
    const script = yield* OfflineScript
    const answer = (options: LanguageModel.ProviderOptions) => {
      const reply = script({
        prompt: options.prompt,
        tools: options.tools.map((tool) => ({ name: tool.name, description: tool.description })),
        model
      })
      const deltas = reply.deltas ?? wordDeltas(reply.text ?? "")
      return { reply, deltas, text: reply.text ?? deltas.join("") }
    }
    return yield* makeLanguageModel({
      generateText: (options) =>
        Effect.sync(() => {
          const { reply, text } = answer(options)
          const parts: Array<Response.PartEncoded> = [{ type: "response-metadata", id: "offline", modelId: model }]
          if (text !== "") parts.push({ type: "text", text })
          parts.push(...toolCallParts(reply), finishOf(options, reply, text))
          return parts
        }),
      streamText: (options) =>
        Stream.suspend(() => {
          const { deltas, reply, text } = answer(options)
          const parts: Array<Response.StreamPartEncoded> = [{
            type: "response-metadata",
            id: "offline",
            modelId: model
          }]
          if (deltas.length > 0) {
            parts.push({ type: "text-start", id: "offline_text" })
            for (const delta of deltas) parts.push({ type: "text-delta", id: "offline_text", delta })
            parts.push({ type: "text-end", id: "offline_text" })
          }
          parts.push(...toolCallParts(reply), finishOf(options, reply, text))
          return Stream.fromIterable(parts)
        })
    })
  })
