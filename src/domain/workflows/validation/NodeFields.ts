/**
 * The JSONata a node holds: its expressions and its templates, each with its
 * dotted path in the node and the moment the engine evaluates it (on arrival
 * for most; a loop's `over` once before the first iteration, its `collect`
 * after each one).
 */
import type { WorkflowNode } from "../WorkflowNode.js"

/** When the engine evaluates a field, for the variables set by then. */
export type Moment = "arrival" | "loop-entry" | "iteration-end"

/** One expression or template of a node. */
export interface NodeField {
  readonly field: string
  readonly kind: "expression" | "template"
  readonly source: string
  readonly moment: Moment
}

const expression = (field: string, source: string, moment: Moment = "arrival"): NodeField => ({
  field,
  kind: "expression",
  source,
  moment
})

const template = (field: string, source: string | undefined): ReadonlyArray<NodeField> =>
  source === undefined ? [] : [{ field, kind: "template", source, moment: "arrival" }]

const mapping = (inputMapping: { readonly [name: string]: string }): ReadonlyArray<NodeField> =>
  Object.entries(inputMapping).map(([name, source]) => expression(`data.inputMapping.${name}`, source))

/** Every expression and template of `node`, in the order of its fields. */
export const fieldsOf = (node: WorkflowNode): ReadonlyArray<NodeField> => {
  switch (node.type) {
    case "llm":
      return [...template("data.system", node.data.system), ...template("data.prompt", node.data.prompt)]
    case "ai-agent":
      return [...template("data.message", node.data.message), ...mapping(node.data.inputMapping)]
    case "http":
      return mapping(node.data.inputMapping)
    case "condition":
    case "switch":
    case "transform":
      return [expression("data.expression", node.data.expression)]
    case "loop":
      return [
        expression("data.over", node.data.over, "loop-entry"),
        ...(node.data.collect === undefined ? [] : [expression("data.collect", node.data.collect, "iteration-end")])
      ]
    case "wait":
      return node.data.for === "approval" ? template("data.prompt", node.data.prompt) : []
    case "input":
      return template("data.prompt", node.data.prompt)
    case "output":
      return node.data.format === "text"
        ? template("data.template", node.data.template)
        : [expression("data.expression", node.data.expression)]
    case "trigger":
    case "parallel":
    case "join":
      return []
  }
}
