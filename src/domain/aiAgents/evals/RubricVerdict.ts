/**
 * The `llm-rubric` expectation's two pure halves: the prompt that asks a
 * judge model to score a reply against a rubric (JSON `{score, reason}`, the
 * score from 0 to 1), and the reading of its answer. The answer is read
 * defensively: JSON alone, in a fenced block, or the first `{...}` in the
 * text; a score outside 0..1 or no score at all is unreadable, and an
 * unreadable answer fails the expectation with a reason saying so (it is not
 * an error of the case).
 */
import { Either } from "effect"
import { excerpt } from "../../Excerpt.js"
import type { PlaygroundMessage } from "../Playground.js"
import { expectationResult } from "./ExpectationScoring.js"
import { replyJson } from "./ReplyJson.js"

/** The first sentence of the judge's system prompt: a scripted judge can recognise the request by it. */
export const JUDGE_PREAMBLE = "You are an impartial judge grading an AI agent's reply against a rubric."

const JUDGE_SYSTEM = [
  JUDGE_PREAMBLE,
  "Read the conversation, the agent's reply to its last user message, and the rubric.",
  "Answer with one JSON object and nothing else: " +
  `{"score": <a number from 0 to 1, 1 meaning the reply fully meets the rubric>, "reason": "<one sentence>"}.`
].join("\n")

/** How much of the conversation (its latest part) the judge is shown. */
const CONVERSATION_CHARS = 8000

/** The judge's prompt for a reply to the conversation's last user message. */
export const judgePrompt = (
  rubric: string,
  conversation: ReadonlyArray<typeof PlaygroundMessage.Type>,
  reply: string
): { readonly system: string; readonly user: string } => {
  const transcript = conversation.map((message) => `${message.role}: ${message.content}`).join("\n")
  const recent = transcript.length <= CONVERSATION_CHARS
    ? transcript
    : `…${transcript.slice(transcript.length - CONVERSATION_CHARS + 1)}`
  return {
    system: JUDGE_SYSTEM,
    user: `Rubric:\n${rubric}\n\nConversation:\n${recent}\n\nThe agent's reply:\n${excerpt(reply, 16_000)}`
  }
}

/** What a judge said, once read. */
export interface RubricVerdict {
  readonly score: number
  readonly reason: string
}

const verdictOf = (value: unknown): RubricVerdict | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
  const { reason, score } = value as { readonly score?: unknown; readonly reason?: unknown }
  const number = typeof score === "string" && score.trim() !== "" ? Number(score) : score
  if (typeof number !== "number" || !Number.isFinite(number) || number < 0 || number > 1) return undefined
  return { score: number, reason: typeof reason === "string" ? reason.trim() : "" }
}

/** The judge's verdict, or `undefined` when its answer cannot be read as one. */
export const readVerdict = (answer: string): RubricVerdict | undefined => {
  const json = replyJson(answer)
  if (Either.isRight(json)) return verdictOf(json.right)
  const open = answer.indexOf("{")
  const close = answer.lastIndexOf("}")
  if (open < 0 || close <= open) return undefined
  try {
    return verdictOf(JSON.parse(answer.slice(open, close + 1)))
  } catch {
    return undefined
  }
}

/** The rubric expectation's result from the judge's answer: passed at `passingScore` or above. */
export const rubricResult = (index: number, passingScore: number, answer: string) => {
  const verdict = readVerdict(answer)
  if (verdict === undefined) {
    return expectationResult(
      index,
      "llm-rubric",
      false,
      0,
      `The judge's answer could not be read as {score, reason}: ${JSON.stringify(excerpt(answer, 300))}`
    )
  }
  const passed = verdict.score >= passingScore
  return expectationResult(
    index,
    "llm-rubric",
    passed,
    verdict.score,
    `The judge scored ${verdict.score} (${passed ? "at least" : "under"} ${passingScore}): ${
      verdict.reason === "" ? "it gave no reason" : verdict.reason
    }`
  )
}
