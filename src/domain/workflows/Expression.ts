/**
 * The expression language of workflows and chains. Expressions are JSONata
 * (https://jsonata.org), evaluated by a library, never by `eval`. A workflow
 * expression reads one input document:
 *
 *   { "input": <the run's input>, "vars": { <variable>: <value> },
 *     "nodes": { <node id>: <that node's last output> }, "item", "index" }
 *
 * (`item` and `index` only inside a loop body), so `vars.order.total > 100`
 * or `$count(input.lines)`. A chain expression reads
 * `{ "input", "event", "steps": { <step id>: <output> }, "previous" }`.
 */
import { Schema } from "effect"
import { ToolArgumentName } from "../workspace/HttpToolDefinition.js"

/** A JSONata expression, 1 to 10,000 characters; checked for syntax and types by validate-publish. */
export const JsonataExpression = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(10_000),
  Schema.annotations({
    identifier: "JsonataExpression",
    description: "A JSONata expression over { input, vars, nodes, item, index }",
    examples: ["vars.order.total > 100"]
  })
)

/** Text with `{{ expression }}` placeholders, each a JSONata expression whose value is inserted as text. */
export const Template = Schema.String.pipe(
  Schema.maxLength(20_000),
  Schema.annotations({
    identifier: "WorkflowTemplate",
    description: "Text with {{ JSONata }} placeholders",
    examples: ["Summarise this ticket for {{ vars.customer.name }}: {{ input.body }}"]
  })
)

/**
 * The named exit of a node that an edge leaves from: `true`/`false` (condition),
 * a case name or `default` (switch), `body`/`done` (loop), `approved`/`rejected`
 * and `timeout` (wait), `error` (a node whose `onError` is `route`).
 */
export const HandleName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
  Schema.annotations({ identifier: "WorkflowHandleName", examples: ["true"] })
)

/** Arguments computed from the run's state: each argument name maps to a JSONata expression (at most 100). */
export const InputMapping = Schema.Record({ key: ToolArgumentName, value: JsonataExpression }).pipe(
  Schema.filter((mapping) => Object.keys(mapping).length <= 100 || "an input mapping has at most 100 arguments"),
  Schema.annotations({
    identifier: "InputMapping",
    description: "Argument name to JSONata expression",
    examples: [{ orderId: "vars.order.id", email: "input.customer.email" }]
  })
)
export type InputMapping = typeof InputMapping.Type
