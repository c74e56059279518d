/**
 * A model's answer as the agent loop needs it, whether it came whole
 * (`generateText`) or as a stream of parts (`streamText`): the text, the tool
 * calls, why it finished, the tokens and the model that answered. The
 * stream's parts are folded by `addPart`, one at a time, so the text can be
 * passed on as it arrives.
 */
import type { LanguageModel, Response } from "@effect/ai"
import { Option } from "effect"

export interface ModelAnswer {
  readonly text: string
  readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly params: unknown }>
  readonly finishReason: string
  readonly inputTokens: number
  readonly outputTokens: number
  /** The model the provider says answered, when it says. */
  readonly modelId: string | null
}

/** The answer of a `generateText` call. */
export const fromResponse = (response: LanguageModel.GenerateTextResponse<any>): ModelAnswer => {
  const metadata = response.content.find((part) => part.type === "response-metadata")
  return {
    text: response.text,
    toolCalls: response.toolCalls.map((call: { id: string; name: string; params: unknown }) => ({
      id: call.id,
      name: call.name,
      params: call.params
    })),
    finishReason: response.finishReason,
    inputTokens: response.usage.inputTokens ?? 0,
    outputTokens: response.usage.outputTokens ?? 0,
    modelId: metadata === undefined ? null : Option.getOrNull(metadata.modelId)
  }
}

/** Nothing received yet. */
export const emptyAnswer: ModelAnswer = {
  text: "",
  toolCalls: [],
  finishReason: "unknown",
  inputTokens: 0,
  outputTokens: 0,
  modelId: null
}

/** The answer so far with one more streamed part; parts of other kinds change nothing. */
export const addPart = (answer: ModelAnswer, part: Response.AnyPart): ModelAnswer => {
  switch (part.type) {
    case "text-delta":
      return { ...answer, text: answer.text + part.delta }
    case "tool-call":
      return { ...answer, toolCalls: [...answer.toolCalls, { id: part.id, name: part.name, params: part.params }] }
    case "response-metadata":
      return { ...answer, modelId: Option.getOrElse(part.modelId, () => answer.modelId) }
    case "finish":
      return {
        ...answer,
        finishReason: part.reason,
        inputTokens: part.usage.inputTokens ?? 0,
        outputTokens: part.usage.outputTokens ?? 0
      }
    default:
      return answer
  }
}
