/**
 * Which variables a node reads and which it sets, for the read-before-set
 * check. Reads: `{{name}}` placeholders in the text a node sends, and
 * `vars.name` in its expressions, except under `$exists(...)` (testing
 * whether a variable is set is not reading it). Sets, per route out of the
 * node: a question's variable on `answered` and `option` (not `fallback`), a
 * set-variable's on `next`, an http or ai node's result on `next`. A router's
 * slot variables are set only when the message fills the slot, so never for
 * certain.
 */
import { templateVariables } from "../../runtime/engine/Templates.js"
import type { EdgeRoute } from "../FlowEdge.js"
import type { FlowNode } from "../FlowNode.js"

const VARS = /(\$exists\(\s*)?(?<![$\w.])vars\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g

/** The variables an expression reads (by `vars.name`), once each, in order. */
export const expressionVariables = (expression: string): ReadonlyArray<string> => [
  ...new Set([...expression.matchAll(VARS)].filter((match) => match[1] === undefined).map((match) => match[2]!))
]

const fromTemplates = (...templates: ReadonlyArray<string | undefined>) =>
  templates.flatMap((template) => (template === undefined ? [] : templateVariables(template)))

/** The variables `node` reads on arrival (or, for a question, when it asks again), once each. */
export const readsOf = (node: FlowNode): ReadonlyArray<string> => {
  switch (node.type) {
    case "message":
      return fromTemplates(node.data.text)
    case "question":
      return [...new Set(fromTemplates(node.data.prompt, node.data.reprompt))]
    case "condition":
      return [...new Set(node.data.cases.flatMap((c) => expressionVariables(c.expression)))]
    case "set-variable":
      return "expression" in node.data ? expressionVariables(node.data.expression) : []
    case "http":
      return [...new Set(Object.values(node.data.input).flatMap(expressionVariables))]
    case "ai":
      return fromTemplates(node.data.prompt)
    case "handoff":
    case "end":
      return fromTemplates(node.data.message)
    case "start":
    case "intent-router":
    case "jump":
      return []
  }
}

/** The variable `node` has certainly set once it leaves by `route`, if any. */
export const setOn = (node: FlowNode, route: EdgeRoute | undefined): string | undefined => {
  if (route === undefined) return undefined
  switch (node.type) {
    case "question":
      return route.kind === "answered" || route.kind === "option" ? node.data.variable : undefined
    case "set-variable":
      return route.kind === "next" ? node.data.variable : undefined
    case "http":
    case "ai":
      return route.kind === "next" ? node.data.resultVariable : undefined
    default:
      return undefined
  }
}
