/**
 * `expression-type`: what the static types (`ExpressionTypes`) can decide,
 * as errors when a node is given a value of a kind its contract excludes and
 * as warnings when the run still works.
 *
 * - A condition whose expression is a constant that is not a boolean (`"yes"`,
 *   `42`, `[1]`) is an error: it always takes the same branch, so it tests
 *   nothing. Other non-boolean values are not reported: the engine reads a
 *   condition with JSONata's truth, so `$count(vars.items)` (any items?) and
 *   `input.name` (given?) are idioms.
 * - A loop over a value sure not to be a list (a string, number, boolean,
 *   `null`, or an object built or declared as one) is an error: the loop
 *   "repeats" once at most (the engine takes a single value as one item).
 * - A switch case whose value has another type than the expression is sure
 *   to have can never match (the engine compares strictly): a warning, since
 *   the run still goes on by `default`, but the case is dead.
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import type { CompiledField } from "./CompiledFields.js"
import type { Declarations } from "./Declarations.js"
import { constantTypeOf, type StaticType, staticTypeOf } from "./ExpressionTypes.js"
import { error, quoted, warning } from "./Problems.js"

const article = (type: StaticType): string =>
  type === "null" ? "null" : type === "array" || type === "object" ? `an ${type}` : `a ${type}`

const typeProblems = (
  node: WorkflowNode,
  fields: ReadonlyArray<CompiledField>,
  declarations: Declarations
): ReadonlyArray<PublishProblem> => {
  const astOf = (name: string): unknown => fields.find((field) => field.field === name)?.compiled[0]?.ast
  const typeOf = (name: string): StaticType | undefined => {
    const ast = astOf(name)
    return ast === undefined ? undefined : staticTypeOf(ast, (input) => declarations.inputs.get(input))
  }
  switch (node.type) {
    case "condition": {
      const type = constantTypeOf(astOf("data.expression"))
      return type === undefined || type === "boolean" ? [] : [
        error(
          "expression-type",
          `The expression of condition ${node.id} is a constant (${
            article(type)
          }), never a test: it always takes the same branch`,
          { nodeId: node.id, field: "data.expression" }
        )
      ]
    }
    case "loop": {
      const type = typeOf("data.over")
      return type === undefined || type === "array" ? [] : [
        error("expression-type", `Loop ${node.id} goes over ${article(type)}, not a list`, {
          nodeId: node.id,
          field: "data.over"
        })
      ]
    }
    case "switch": {
      const type = typeOf("data.expression")
      if (type === undefined) return []
      return node.data.cases.flatMap((c, index) => {
        const caseType = typeof c.value as StaticType
        return caseType === type ? [] : [
          warning(
            "expression-type",
            `Case ${quoted(c.name)} of switch ${node.id} is ${article(caseType)} but the expression is always ${
              article(type)
            }: it can never match`,
            { nodeId: node.id, field: `data.cases.${index}.value` }
          )
        ]
      })
    }
    default:
      return []
  }
}

/** Type problems, node by node in graph order. */
export const expressionTypeProblems = (
  nodes: ReadonlyArray<WorkflowNode>,
  fields: ReadonlyMap<string, ReadonlyArray<CompiledField>>,
  declarations: Declarations
): ReadonlyArray<PublishProblem> => nodes.flatMap((node) => typeProblems(node, fields.get(node.id) ?? [], declarations))
