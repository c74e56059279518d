/**
 * `LanguageModel.make` with a faster plain call: @effect/ai 0.37 builds the
 * schema of a response's parts, and compiles its decoder, on every
 * `generateText` (a third of the CPU a call through Parley spent, measured by
 * bench/providers). A call without a toolkit (a plain answer, the settings'
 * test) decodes here with a schema built once; everything else (tools,
 * structured output, streams) is @effect/ai's own. Parley sets no span
 * transformer, which is the one thing this path leaves out.
 */
import { AiError, IdGenerator, LanguageModel, Prompt, Response, Toolkit } from "@effect/ai"
import { Effect } from "effect"
import { Schema } from "effect"

const decodeParts = Schema.decodeUnknown(Schema.mutable(Schema.Array(Response.Part(Toolkit.empty))))

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
            params.generateText({
              prompt: Prompt.make(options.prompt),
              tools: [],
              toolChoice: "none",
              responseFormat: { type: "text" },
              span
            }).pipe(
              Effect.flatMap(decodeParts),
              Effect.map((content) => new LanguageModel.GenerateTextResponse<{}>(content)),
              Effect.catchTag(
                "ParseError",
                (error) =>
                  AiError.MalformedOutput.fromParseError({ module: "LanguageModel", method: "generateText", error })
              ),
              Effect.provideService(IdGenerator.IdGenerator, IdGenerator.defaultIdGenerator)
            )
        )) as LanguageModel.Service["generateText"]
  }))
