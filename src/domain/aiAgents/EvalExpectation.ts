/**
 * What an eval case expects of the agent's reply to its last user message,
 * in the manner of promptfoo's assertions. Each expectation scores 0 to 1:
 * the deterministic ones 1 or 0, `llm-rubric` the judge's score.
 */
import { Schema } from "effect"
import { JsonObject, JsonSchemaDocument } from "../Json.js"
import { ToolName } from "../workspace/HttpToolDefinition.js"

/** The kinds of expectation. */
export const EvalExpectationKind = Schema.Literal(
  "contains",
  "not-contains",
  "regex",
  "tool-called",
  "json-schema",
  "llm-rubric"
).annotations({ identifier: "EvalExpectationKind" })
export type EvalExpectationKind = typeof EvalExpectationKind.Type

const Needle = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000))

/** The reply contains `value` (ignoring case unless `caseSensitive`). */
export const ContainsExpectation = Schema.Struct({
  kind: Schema.Literal("contains"),
  value: Needle,
  caseSensitive: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "ContainsExpectation" })

/** The reply does not contain `value` (ignoring case unless `caseSensitive`). */
export const NotContainsExpectation = Schema.Struct({
  kind: Schema.Literal("not-contains"),
  value: Needle,
  caseSensitive: Schema.optionalWith(Schema.Boolean, { default: () => false })
}).annotations({ identifier: "NotContainsExpectation" })

/** The reply matches a regular expression (JavaScript syntax; it must compile) with the given flags. */
export const RegexExpectation = Schema.Struct({
  kind: Schema.Literal("regex"),
  pattern: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  flags: Schema.optionalWith(Schema.String.pipe(Schema.pattern(/^(?!.*(.).*\1)[imsu]{0,4}$/)), { default: () => "" })
}).annotations({ identifier: "RegexExpectation" })

/**
 * How a call's arguments are compared with `value`: `subset` as Jest's
 * `toMatchObject` (every property given is present and matches, objects at
 * any depth may have more properties, arrays match element by element with
 * the same length), `exact` when the arguments equal `value`.
 */
export const ArgumentMatcher = Schema.Struct({
  match: Schema.optionalWith(Schema.Literal("subset", "exact"), { default: () => "subset" as const }),
  value: JsonObject
}).annotations({ identifier: "ArgumentMatcher" })

/** The agent called the tool of this name during the turn, with matching arguments when a matcher is given. */
export const ToolCalledExpectation = Schema.Struct({
  kind: Schema.Literal("tool-called"),
  tool: ToolName,
  arguments: Schema.optionalWith(Schema.NullOr(ArgumentMatcher), { default: () => null })
}).annotations({ identifier: "ToolCalledExpectation" })

/** The reply is JSON (alone, or in one fenced block) that satisfies the schema. */
export const JsonSchemaExpectation = Schema.Struct({
  kind: Schema.Literal("json-schema"),
  schema: JsonSchemaDocument
}).annotations({ identifier: "JsonSchemaExpectation" })

/** A judge LLM scores the reply against the rubric from 0 to 1; it passes at `passingScore` or above. */
export const LlmRubricExpectation = Schema.Struct({
  kind: Schema.Literal("llm-rubric"),
  rubric: Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(4000)),
  passingScore: Schema.optionalWith(Schema.Number.pipe(Schema.between(0, 1)), { default: () => 0.7 })
}).annotations({ identifier: "LlmRubricExpectation" })

/** One expectation of an eval case, by `kind`. */
export const EvalExpectation = Schema.Union(
  ContainsExpectation,
  NotContainsExpectation,
  RegexExpectation,
  ToolCalledExpectation,
  JsonSchemaExpectation,
  LlmRubricExpectation
).annotations({ identifier: "EvalExpectation" })
export type EvalExpectation = typeof EvalExpectation.Type
