/**
 * What analytics keeps of a turn, beside its reply: the intent the
 * classifier recognised (if an intent router read the message), and whether
 * the message was a fallback: out of scope for a router, or the last failed
 * attempt at a question (the one that sends the conversation down the
 * question's `fallback` edge). A reprompt is not a fallback yet.
 */
import { validateAnswer } from "./engine/AnswerValidation.js"
import type { Step } from "./engine/FlowEngine.js"
import type { FlowProgram } from "./engine/FlowProgram.js"
import type { SessionState } from "./RuntimeSession.js"
import type { TurnInput } from "./Turn.js"

export interface TurnFacts {
  readonly intent: string | null
  readonly fallback: boolean
}

/** The facts of `step`, the step `program` took from `before` on `input`. */
export const turnFacts = (program: FlowProgram, before: SessionState, input: TurnInput, step: Step): TurnFacts => {
  if (step.nlu !== null) return { intent: step.nlu.intent, fallback: step.nlu.intent === null }
  const waiting = before.status === "active" && before.nodeId !== null ? program.node(before.nodeId) : undefined
  if (waiting === undefined || waiting.type !== "question") return { intent: null, fallback: false }
  const { maxAttempts, validation } = waiting.data
  const invalid =
    validateAnswer(validation, input, { formats: program.formats, pattern: program.pattern }) === undefined
  return { intent: null, fallback: invalid && before.attempts + 1 >= maxAttempts }
}
