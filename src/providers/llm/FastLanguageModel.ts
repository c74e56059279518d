/**
 * `LanguageModel.make` with a faster plain call: @effect/ai 0.37 builds the
 * schema of a response's parts, and compiles its decoder, on every
 * `generateText`, and decoding a part tries each kind of part in turn (most
 * of the CPU a plain call through Parley spent, measured by bench/providers).
 * A call without a toolkit (a plain answer or stream, the settings' test)
 * takes the parts our adapters make as they are: the kinds a plain answer
 * has (response metadata, text and its stream deltas, finish) are built directly, exactly as the schema
 * would decode them (`test/unit/providers/llm/FastLanguageModel.test.ts`
 * checks both agree); any other kind goes through a decoder built once.
 * Everything else (tools, structured output) is @effect/ai's own.
 * Parley sets no span transformer, which is the one thing this path leaves
 * out.
 */
import { AiError, IdGenerator, LanguageModel, Prompt, Response, Toolkit } from "@effect/ai"
import { Chunk, Effect, Option, type ParseResult, Schema, Stream } from "effect"
import type { Span } from "effect/Tracer"

const decodeParts = Schema.decodeUnknown(Schema.mutable(Schema.Array(Response.Part(Toolkit.empty))))
const decodeStreamParts = Schema.decodeUnknown(Schema.ChunkFromSelf(Response.StreamPart(Toolkit.empty)))

type PlainPart = Response.ResponseMetadataPart | Response.TextPart | Response.FinishPart
type PlainStreamPart = PlainPart | Response.TextStartPart | Response.TextDeltaPart | Response.TextEndPart

const optionalString = (value: unknown): Option.Option<string> =>
  typeof value === "string" ? Option.some(value) : Option.none()
const count = (value: unknown): number | undefined => typeof value === "number" ? value : undefined

/** `part` as the schema decodes it, when it is a kind a plain answer has and well formed; otherwise undefined. */
const plainPart = (part: Response.PartEncoded): PlainPart | undefined => {
  if (part.metadata !== undefined) return undefined
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? Response.makePart("text", { text: part.text }) : undefined
    case "response-metadata":
      return part.timestamp === undefined
        ? Response.makePart("response-metadata", {
          id: optionalString(part.id),
          modelId: optionalString(part.modelId),
          timestamp: Option.none()
        })
        : undefined
    case "finish": {
      const usage = part.usage
      if (!Response.FinishReason.literals.includes(part.reason) || typeof usage !== "object" || usage === null) {
        return undefined
      }
      if (usage.reasoningTokens !== undefined || usage.cachedInputTokens !== undefined) return undefined
      return Response.makePart("finish", {
        reason: part.reason,
        usage: new Response.Usage({
          inputTokens: count(usage.inputTokens),
          outputTokens: count(usage.outputTokens),
          totalTokens: count(usage.totalTokens)
        }, true)
      })
    }
    default:
      return undefined
  }
}

/** `part` of a stream as the schema decodes it, when it is a kind a plain stream has; otherwise undefined. */
const plainStreamPart = (part: Response.StreamPartEncoded): PlainStreamPart | undefined => {
  if (part.metadata !== undefined) return undefined
  switch (part.type) {
    case "text-start":
    case "text-end":
      return typeof part.id === "string" ? Response.makePart(part.type, { id: part.id }) : undefined
    case "text-delta":
      return typeof part.id === "string" && typeof part.delta === "string"
        ? Response.makePart("text-delta", { id: part.id, delta: part.delta })
        : undefined
    case "response-metadata":
    case "finish":
      return plainPart(part)
    default:
      return undefined
  }
}

const malformed = (method: string) => (error: ParseResult.ParseError) =>
  AiError.MalformedOutput.fromParseError({ module: "LanguageModel", method, error })

/**
 * `parts` built one by one with `build`, or, when one of them cannot be,
 * all of them decoded with `decode` (its parse error a MalformedOutput of `method`).
 */
const builtOrDecoded = <P, A>(
  parts: Iterable<P>,
  build: (part: P) => A | undefined,
  decode: Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError, IdGenerator.IdGenerator>,
  method: string
): Effect.Effect<ReadonlyArray<A>, AiError.AiError> => {
  const built: Array<A> = []
  for (const part of parts) {
    const plain = build(part)
    if (plain === undefined) {
      return decode.pipe(
        Effect.mapError(malformed(method)),
        Effect.provideService(IdGenerator.IdGenerator, IdGenerator.defaultIdGenerator)
      )
    }
    built.push(plain)
  }
  return Effect.succeed(built)
}

/** A chunk of a plain stream's parts: built directly when every part allows it, decoded otherwise. */
export const plainStreamParts = (
  parts: Chunk.Chunk<Response.StreamPartEncoded>
): Effect.Effect<Chunk.Chunk<Response.AnyPart>, AiError.AiError> =>
  Effect.map(
    builtOrDecoded<Response.StreamPartEncoded, Response.AnyPart>(
      parts,
      plainStreamPart,
      Effect.map(decodeStreamParts(parts), Chunk.toReadonlyArray),
      "streamText"
    ),
    Chunk.unsafeFromArray
  )

/** The parts of a plain answer: built directly when every part allows it, decoded otherwise. */
export const plainParts = (
  parts: ReadonlyArray<Response.PartEncoded>
): Effect.Effect<ReadonlyArray<Response.AnyPart>, AiError.AiError> =>
  builtOrDecoded<Response.PartEncoded, Response.AnyPart>(parts, plainPart, decodeParts(parts), "generateText")

/** What a provider is asked for a call without tools. */
const plainOptions = (prompt: Prompt.RawInput, span: Span): LanguageModel.ProviderOptions => ({
  prompt: Prompt.make(prompt),
  tools: [],
  toolChoice: "none",
  responseFormat: { type: "text" },
  span
})

/** The LanguageModel of a provider's `params`. */
export const makeLanguageModel = (params: LanguageModel.ConstructorParams) =>
  Effect.map(LanguageModel.make(params), (service): LanguageModel.Service => ({
    ...service,
    generateText: ((options: LanguageModel.GenerateTextOptions<any>) =>
      options.toolkit !== undefined
        ? service.generateText(options as any)
        : Effect.useSpan(
          "LanguageModel.generateText",
          { captureStackTrace: false, attributes: { toolChoice: options.toolChoice } },
          (span) =>
            params.generateText(plainOptions(options.prompt, span)).pipe(
              Effect.flatMap(plainParts),
              Effect.map((content) => new LanguageModel.GenerateTextResponse<{}>(content as any))
            )
        )) as LanguageModel.Service["generateText"],
    streamText: ((options: LanguageModel.GenerateTextOptions<any>) =>
      options.toolkit !== undefined
        ? service.streamText(options as any)
        : Stream.unwrapScoped(Effect.map(
          Effect.makeSpanScoped("LanguageModel.streamText", {
            captureStackTrace: false,
            attributes: { toolChoice: options.toolChoice }
          }),
          (span) => Stream.mapChunksEffect(params.streamText(plainOptions(options.prompt, span)), plainStreamParts)
        ))) as LanguageModel.Service["streamText"]
  }))
