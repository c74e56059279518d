/**
 * Variables of an Assistant conversation and the two ways a flow reads them:
 * templates in the text it sends, and JSONata expressions in the decisions it
 * makes. Both only read variables, so analysis can tell which variables a node
 * uses and whether some path sets them first.
 */
import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { VariableName } from "../VariableName.js"

/** At most this many variables in one session's state or one start request. */
export const MAX_VARIABLES = 200

/** A set of variables and their JSON values. */
export const Variables = Schema.Record({ key: VariableName, value: JsonValue }).pipe(
  Schema.filter((variables) => Object.keys(variables).length <= MAX_VARIABLES || `at most ${MAX_VARIABLES} variables`, {
    jsonSchema: { maxProperties: MAX_VARIABLES }
  }),
  Schema.annotations({
    identifier: "FlowVariables",
    description: "Variable name to any JSON value",
    examples: [{ email: "ada@example.com" } as never]
  })
)
export type Variables = typeof Variables.Type

/**
 * Text the bot sends, with `{{name}}` placeholders replaced by a variable's
 * value (`{{order.total}}` reads a path into one; a missing value is empty).
 * Placeholders hold variable paths only, never expressions.
 */
export const Template = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(4000),
  Schema.annotations({
    identifier: "FlowTemplate",
    description: "Text with {{variable}} placeholders (1 to 4,000 characters)",
    examples: ["Thanks {{name}}, your order {{order.id}} is on its way."]
  })
)

/**
 * A JSONata expression (https://jsonata.org), evaluated by a library and never
 * by `eval`, over `{ "vars": { <variable>: <value> }, "input": <the last user
 * message: { text, payload, intent, confidence, slots }> }`.
 */
export const FlowExpression = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(2000),
  Schema.annotations({
    identifier: "FlowExpression",
    description: "A JSONata expression over { vars, input }",
    examples: ["vars.order.total > 100 and input.intent = 'refund'"]
  })
)
