/**
 * The `openai` and `openai-compatible` providers: a LanguageModel over
 * `POST {baseUrl}/chat/completions`, plain and streamed (server-sent events
 * ending in `data: [DONE]`), with function tool calls and usage. Answers are
 * read leniently (servers differ in the fields they add or leave out); only
 * what Parley uses must be there.
 */
import { AiError, type LanguageModel, type Response } from "@effect/ai"
import { HttpClient, type HttpClientError, HttpClientRequest } from "@effect/platform"
import { Effect, Either, Option, Redacted, Schema, Stream } from "effect"
import { feedSse, initialSseState } from "../../domain/llm/ServerSentEvents.js"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { makeLanguageModel } from "./FastLanguageModel.js"
import { chatCompletionBody } from "./OpenAiChatRequest.js"

const ToolCall = Schema.Struct({
  index: Schema.optional(Schema.Number),
  id: Schema.optional(Schema.NullOr(Schema.String)),
  function: Schema.optional(Schema.Struct({
    name: Schema.optional(Schema.NullOr(Schema.String)),
    arguments: Schema.optional(Schema.NullOr(Schema.String))
  }))
})
const Usage = Schema.Struct({
  prompt_tokens: Schema.optional(Schema.Number),
  completion_tokens: Schema.optional(Schema.Number),
  total_tokens: Schema.optional(Schema.Number)
})
const Message = Schema.Struct({
  content: Schema.optional(Schema.NullOr(Schema.String)),
  tool_calls: Schema.optional(Schema.NullOr(Schema.Array(ToolCall)))
})
const Completion = Schema.Struct({
  id: Schema.optional(Schema.String),
  model: Schema.optional(Schema.String),
  choices: Schema.Array(
    Schema.Struct({ message: Message, finish_reason: Schema.optional(Schema.NullOr(Schema.String)) })
  ),
  usage: Schema.optional(Schema.NullOr(Usage))
})
const CompletionChunk = Schema.Struct({
  id: Schema.optional(Schema.String),
  model: Schema.optional(Schema.String),
  choices: Schema.optional(Schema.Array(Schema.Struct({
    delta: Schema.optional(Schema.NullOr(Message)),
    finish_reason: Schema.optional(Schema.NullOr(Schema.String))
  }))),
  usage: Schema.optional(Schema.NullOr(Usage))
})
const decodeCompletion = Schema.decodeUnknownEither(Completion)
const decodeChunk = Schema.decodeUnknown(Schema.parseJson(CompletionChunk))

const finishReason = (reason: string | null | undefined): Response.FinishReason => {
  switch (reason) {
    case "stop":
      return "stop"
    case "length":
      return "length"
    case "tool_calls":
    case "function_call":
      return "tool-calls"
    case "content_filter":
      return "content-filter"
    default:
      return "unknown"
  }
}

const usageOf = (usage: typeof Usage.Type | null | undefined) => ({
  inputTokens: usage?.prompt_tokens,
  outputTokens: usage?.completion_tokens,
  totalTokens: usage?.total_tokens ??
    (usage?.prompt_tokens !== undefined && usage.completion_tokens !== undefined
      ? usage.prompt_tokens + usage.completion_tokens
      : undefined)
})

const malformed = (method: string, description: string) =>
  new AiError.MalformedOutput({ module: "OpenAiChatModel", method, description })

const toolCallPart = (method: string, id: string, name: string, args: string) =>
  Effect.try({
    try: (): Response.ToolCallPartEncoded => ({
      type: "tool-call",
      id,
      name,
      params: args.trim() === "" ? {} : JSON.parse(args),
      providerExecuted: false
    }),
    catch: () => malformed(method, `the arguments of the tool call ${name} are not JSON`)
  })

const fromHttpError =
  (method: string) => (error: HttpClientError.HttpClientError): Effect.Effect<never, AiError.AiError> =>
    error._tag === "RequestError"
      ? Effect.fail(AiError.HttpRequestError.fromRequestError({ module: "OpenAiChatModel", method, error }))
      : AiError.HttpResponseError.fromResponseError({ module: "OpenAiChatModel", method, error })

/** The LanguageModel of `connection` (its base URL, or OpenAI's) over `httpClient`. */
export const makeOpenAiChatModel = (
  connection: LlmConnection,
  apiKey: Option.Option<Redacted.Redacted<string>>,
  httpClient: HttpClient.HttpClient
) => {
  const baseUrl = (connection.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "")
  const http = httpClient.pipe(
    HttpClient.mapRequest((request) => {
      const prefixed = HttpClientRequest.acceptJson(HttpClientRequest.prependUrl(request, baseUrl))
      return Option.isSome(apiKey) ? HttpClientRequest.bearerToken(prefixed, Redacted.value(apiKey.value)) : prefixed
    }),
    HttpClient.filterStatusOk
  )
  const post = (body: Record<string, unknown>) =>
    HttpClientRequest.post("/chat/completions").pipe(HttpClientRequest.bodyUnsafeJson(body))

  const generateText = (options: LanguageModel.ProviderOptions) =>
    Effect.gen(function*() {
      const response = yield* http.execute(post(chatCompletionBody(connection, options, false))).pipe(
        Effect.flatMap((response) => response.json),
        Effect.catchAll(fromHttpError("generateText"))
      )
      const decoded = decodeCompletion(response)
      if (Either.isLeft(decoded)) return yield* malformed("generateText", "the answer is not a chat completion")
      const completion = decoded.right
      const choice = completion.choices[0]
      const parts: Array<Response.PartEncoded> = [{
        type: "response-metadata",
        id: completion.id,
        modelId: completion.model
      }]
      const text = choice?.message.content ?? ""
      if (text !== "") parts.push({ type: "text", text })
      for (const [index, call] of (choice?.message.tool_calls ?? []).entries()) {
        parts.push(
          yield* toolCallPart(
            "generateText",
            call.id ?? `call_${index}`,
            call.function?.name ?? "",
            call.function?.arguments ?? ""
          )
        )
      }
      parts.push({ type: "finish", reason: finishReason(choice?.finish_reason), usage: usageOf(completion.usage) })
      return parts
    })

  const streamText = (options: LanguageModel.ProviderOptions) =>
    Stream.suspend(() => {
      let sse = initialSseState
      let started = false
      let textOpen = false
      let reason: string | null | undefined
      let usage: typeof Usage.Type | null | undefined
      const calls = new Map<number, { id: string; name: string; args: string }>()
      const parts = (chunk: typeof CompletionChunk.Type): Array<Response.StreamPartEncoded> => {
        const out: Array<Response.StreamPartEncoded> = []
        if (!started) {
          started = true
          out.push({ type: "response-metadata", id: chunk.id, modelId: chunk.model })
        }
        if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage
        for (const choice of chunk.choices ?? []) {
          const content = choice.delta?.content
          if (content !== undefined && content !== null && content !== "") {
            if (!textOpen) out.push({ type: "text-start", id: "text" })
            textOpen = true
            out.push({ type: "text-delta", id: "text", delta: content })
          }
          for (const call of choice.delta?.tool_calls ?? []) {
            const index = call.index ?? 0
            const known = calls.get(index) ?? { id: `call_${index}`, name: "", args: "" }
            calls.set(index, {
              id: call.id ?? known.id,
              name: known.name + (call.function?.name ?? ""),
              args: known.args + (call.function?.arguments ?? "")
            })
          }
          if (choice.finish_reason !== undefined && choice.finish_reason !== null) reason = choice.finish_reason
        }
        return out
      }
      const ending = Effect.gen(function*() {
        const out: Array<Response.StreamPartEncoded> = textOpen ? [{ type: "text-end", id: "text" }] : []
        for (const call of calls.values()) out.push(yield* toolCallPart("streamText", call.id, call.name, call.args))
        out.push({ type: "finish", reason: finishReason(reason), usage: usageOf(usage) })
        return out
      })
      return http.execute(post(chatCompletionBody(connection, options, true))).pipe(
        Effect.map((response) => response.stream),
        Stream.unwrapScoped,
        Stream.decodeText(),
        Stream.mapConcatEffect((text) => {
          const step = feedSse(sse, text)
          sse = step.state
          return step.tooLarge
            ? Effect.fail(malformed("streamText", "a stream event passed 10 MiB without ending"))
            : Effect.succeed(step.events)
        }),
        Stream.takeWhile((event) => event.data.trim() !== "[DONE]"),
        Stream.mapEffect((event) =>
          decodeChunk(event.data).pipe(
            Effect.mapError(() => malformed("streamText", "a stream event is not a chat completion chunk"))
          )
        ),
        Stream.catchTags({
          RequestError: (error) => Stream.fromEffect(fromHttpError("streamText")(error)),
          ResponseError: (error) => Stream.fromEffect(fromHttpError("streamText")(error))
        }),
        Stream.mapConcat(parts),
        Stream.concat(Stream.fromIterableEffect(ending))
      )
    })

  return makeLanguageModel({ generateText, streamText })
}
