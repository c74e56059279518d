/**
 * Scoring one expectation of an eval case against what the agent did: its
 * reply to the last user message and the tool calls of that turn. Every kind
 * but `llm-rubric` is decided here, purely, as 1 (passed) or 0 (failed) with
 * the reason in a sentence; a rubric needs a judge (`RubricVerdict.ts`).
 *
 * Regexes run on Parley's linear-time engine (`domain/patterns`), never on
 * the native RegExp; JSON schemas are checked with the tools' input
 * validator (the same supported subset, checked when the case is written).
 */
import { Either } from "effect"
import { excerpt } from "../../Excerpt.js"
import type { JsonValue } from "../../Json.js"
import { compileUserPattern, MAX_MATCH_WORK } from "../../patterns/UserPattern.js"
import { inputProblems } from "../../workspace/ToolInputValidation.js"
import type { TurnToolCall } from "../AgentTurn.js"
import type { EvalExpectation } from "../EvalExpectation.js"
import type { EvalExpectationResult } from "../EvalRun.js"
import { jsonEquals, jsonSubset } from "./JsonMatch.js"
import { replyJson } from "./ReplyJson.js"

/** What a case is judged on: the reply (null when the turn produced none) and the turn's tool calls. */
export interface EvalTurnUnderTest {
  readonly reply: string | null
  readonly toolCalls: ReadonlyArray<TurnToolCall>
}

/** The most characters of a reason. */
export const REASON_LENGTH = 2000

/** An expectation's result with its reason cut to fit. */
export const expectationResult = (
  index: number,
  kind: EvalExpectation["kind"],
  passed: boolean,
  score: number,
  reason: string
): EvalExpectationResult => ({
  index,
  kind,
  passed,
  score: Math.min(1, Math.max(0, score)),
  reason: excerpt(reason, REASON_LENGTH)
})

const verdict = (index: number, kind: EvalExpectation["kind"], passed: boolean, reason: string) =>
  expectationResult(index, kind, passed, passed ? 1 : 0, reason)

const quoted = (text: string, max = 200) => JSON.stringify(excerpt(text, max))
const shownJson = (value: JsonValue, max = 300) => excerpt(JSON.stringify(value), max)

const contains = (reply: string, value: string, caseSensitive: boolean) =>
  caseSensitive ? reply.includes(value) : reply.toLowerCase().includes(value.toLowerCase())

const regexResult = (
  index: number,
  reply: string,
  expectation: Extract<EvalExpectation, { readonly kind: "regex" }>
) => {
  const shown = `/${excerpt(expectation.pattern, 200)}/${expectation.flags}`
  const compiled = compileUserPattern(expectation.pattern, expectation.flags)
  if (Either.isLeft(compiled)) {
    return verdict(index, "regex", false, `The pattern ${shown} cannot be used: ${compiled.left}`)
  }
  const pattern = compiled.right
  if (pattern.workOn(reply) > MAX_MATCH_WORK) {
    return verdict(index, "regex", false, `The reply is too long to check against ${shown}`)
  }
  const found = pattern.search(reply, 0)
  return found === undefined
    ? verdict(index, "regex", false, `The reply does not match ${shown}`)
    : verdict(index, "regex", true, `The reply matches ${shown}: first match ${quoted(found.match)}`)
}

const toolCalledResult = (
  index: number,
  calls: ReadonlyArray<TurnToolCall>,
  expectation: Extract<EvalExpectation, { readonly kind: "tool-called" }>
) => {
  const named = calls.filter((call) => call.name === expectation.tool)
  if (named.length === 0) {
    const others = [...new Set(calls.map((call) => call.name))]
    return verdict(
      index,
      "tool-called",
      false,
      `The agent did not call ${expectation.tool}` +
        (others.length === 0 ? " (it called no tool)" : ` (it called ${others.join(", ")})`)
    )
  }
  const times = named.length === 1 ? "once" : `${named.length} times`
  const matcher = expectation.arguments
  if (matcher === null) return verdict(index, "tool-called", true, `The agent called ${expectation.tool} ${times}`)
  const matches = matcher.match === "exact" ? jsonEquals : jsonSubset
  const matching = named.find((call) => matches(call.arguments, matcher.value))
  return matching !== undefined
    ? verdict(
      index,
      "tool-called",
      true,
      `The agent called ${expectation.tool} with arguments matching (${matcher.match}) ${shownJson(matcher.value)}`
    )
    : verdict(
      index,
      "tool-called",
      false,
      `The agent called ${expectation.tool} ${times}, never with arguments matching (${matcher.match}) ` +
        `${shownJson(matcher.value)}; it sent ${named.map((call) => shownJson(call.arguments)).join(", ")}`
    )
}

const jsonSchemaResult = (
  index: number,
  reply: string,
  expectation: Extract<EvalExpectation, { readonly kind: "json-schema" }>
) =>
  Either.match(replyJson(reply), {
    onLeft: (reason) => verdict(index, "json-schema", false, reason),
    onRight: (value) => {
      const problems = inputProblems(expectation.schema, value)
      return problems.length === 0
        ? verdict(index, "json-schema", true, "The reply's JSON satisfies the schema")
        : verdict(
          index,
          "json-schema",
          false,
          `The reply's JSON does not satisfy the schema: ${
            problems.map((problem) => `${problem.pointer || "/"} ${problem.message}`).join("; ")
          }`
        )
    }
  })

/**
 * The result of the expectation at `index`, for every kind but `llm-rubric`
 * (which answers `undefined`: it needs the judge).
 */
export const scoreExpectation = (
  index: number,
  expectation: EvalExpectation,
  turn: EvalTurnUnderTest
): EvalExpectationResult | undefined => {
  const reply = turn.reply ?? ""
  switch (expectation.kind) {
    case "contains":
      return contains(reply, expectation.value, expectation.caseSensitive)
        ? verdict(index, "contains", true, `The reply contains ${quoted(expectation.value)}`)
        : verdict(index, "contains", false, `The reply does not contain ${quoted(expectation.value)}`)
    case "not-contains":
      return contains(reply, expectation.value, expectation.caseSensitive)
        ? verdict(index, "not-contains", false, `The reply contains ${quoted(expectation.value)}`)
        : verdict(index, "not-contains", true, `The reply does not contain ${quoted(expectation.value)}`)
    case "regex":
      return regexResult(index, reply, expectation)
    case "tool-called":
      return toolCalledResult(index, turn.toolCalls, expectation)
    case "json-schema":
      return jsonSchemaResult(index, reply, expectation)
    case "llm-rubric":
      return undefined
  }
}
