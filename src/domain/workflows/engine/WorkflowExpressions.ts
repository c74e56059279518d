/**
 * Workflow expressions and templates, on the runtime's bounded, deterministic
 * JSONata evaluator (`runtime/engine/Expressions`: step budget, RE2 regexes,
 * `$now()` from Effect's Clock, seeded `$random()`). An expression reads
 * `{ input, vars, nodes, item, index }` (see `Expression.ts`); a template is
 * text whose `{{ expression }}` placeholders are replaced by their values as
 * text (a string as it is, other values as JSON, no value or `null` as
 * nothing), split as validate-publish splits them (`scanTemplate`: a `}}`
 * inside the expression's strings or braces does not close it; a `{{` never
 * closed is an error). Anything that goes wrong is an `expression-error`
 * failure at the node, never a thrown error.
 */
import { Effect } from "effect"
import type { JsonObject, JsonValue } from "../../Json.js"
import {
  type CompiledExpression,
  compileExpression,
  evaluateOver,
  type EvaluationContext
} from "../../runtime/engine/Expressions.js"
import { toJson } from "../../runtime/engine/ExpressionValues.js"
import { asText } from "../../runtime/engine/Templates.js"
import type { WorkflowNodeId } from "../Ids.js"
import { scanTemplate } from "../validation/TemplatePlaceholders.js"
import { failedAt, type WorkflowRunFailed } from "./WorkflowRunFailed.js"

/** What a workflow expression reads; `item` and `index` only inside a loop body. */
export type WorkflowDocument = {
  readonly input: JsonValue
  readonly vars: JsonObject
  readonly nodes: JsonObject
  readonly item?: JsonValue
  readonly index?: number
}

/** Each expression of a run compiled once, by its source (a cache: never iterated). */
export type ExpressionCache = Map<string, CompiledExpression>

const compiled = (cache: ExpressionCache, source: string): CompiledExpression => {
  let expression = cache.get(source)
  if (expression === undefined) {
    expression = compileExpression(source)
    cache.set(source, expression)
  }
  return expression
}

/** Where an expression is evaluated: the run's cache, the node, and the execution's instant and budget. */
export interface ExpressionSite {
  readonly cache: ExpressionCache
  readonly nodeId: WorkflowNodeId
  readonly context: EvaluationContext
}

/** The raw JSONata value of an expression (undefined when it has none). */
export const evaluate = (
  site: ExpressionSite,
  source: string,
  document: WorkflowDocument
): Effect.Effect<unknown, WorkflowRunFailed> =>
  evaluateOver(compiled(site.cache, source), document, site.context).pipe(
    Effect.flatMap((result) =>
      result._tag === "Right"
        ? Effect.succeed(result.right)
        : Effect.fail(failedAt(site.nodeId, "expression-error", `${source.trim()}: ${result.left.message}`))
    )
  )

/** An expression's value as JSON; no value is `null`. */
export const evaluateJson = (
  site: ExpressionSite,
  source: string,
  document: WorkflowDocument
): Effect.Effect<JsonValue, WorkflowRunFailed> =>
  Effect.map(evaluate(site, source, document), (value) => toJson(value) ?? null)

/** The values of an input mapping, argument by argument in the mapping's order. */
export const evaluateMapping = (
  site: ExpressionSite,
  mapping: { readonly [name: string]: string },
  document: WorkflowDocument
): Effect.Effect<JsonObject, WorkflowRunFailed> =>
  Effect.forEach(
    Object.entries(mapping),
    ([name, source]) => Effect.map(evaluateJson(site, source, document), (value) => [name, value] as const)
  ).pipe(Effect.map(Object.fromEntries))

/** A template with each placeholder replaced by its value as text. */
export const renderTemplate = (
  site: ExpressionSite,
  template: string,
  document: WorkflowDocument
): Effect.Effect<string, WorkflowRunFailed> =>
  Effect.gen(function*() {
    const scan = scanTemplate(template)
    if (scan.unclosedAt !== undefined) {
      return yield* Effect.fail(
        failedAt(site.nodeId, "expression-error", `the placeholder at ${scan.unclosedAt} is never closed by }}`)
      )
    }
    const parts: Array<string> = []
    let last = 0
    for (const { at, source } of scan.placeholders) {
      parts.push(template.slice(last, at))
      parts.push(asText(toJson(yield* evaluate(site, source, document))))
      last = at + source.length + 4
    }
    parts.push(template.slice(last))
    return parts.join("")
  })
