/**
 * `unknown-variable`, an error: an expression reads something no run can
 * have. `input.<name>` the trigger does not declare (a run's input is checked
 * against the declared inputs), `vars.<name>` that no node writes,
 * `nodes.<id>` that is not a node of the graph, `item` or `index` outside a
 * loop's body (and a loop's own `collect`), or a document field that is none
 * of `input`, `vars`, `nodes`, `item` and `index` (`order.total` for
 * `vars.order.total`): each reads as nothing on every run. Reported once per
 * node and name, at the first field that reads it. Without a trigger, inputs
 * are not checked (`no-trigger` says what to fix first).
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import type { CompiledField } from "./CompiledFields.js"
import type { Declarations } from "./Declarations.js"
import type { Reference } from "./ExpressionReads.js"
import { error, listed, quoted } from "./Problems.js"
import type { Topology } from "./Topology.js"

const DOCUMENT = ["input", "vars", "nodes", "item", "index"]

/** Why `reference`, read by `node` in `field`, can never have a value; `undefined` when it can. */
const unknown = (
  topology: Topology,
  declarations: Declarations,
  node: WorkflowNode,
  field: CompiledField,
  reference: Reference
): string | undefined => {
  const { name, root } = reference
  const reads = `Node ${node.id} reads`
  switch (root) {
    case "input":
      if (name === undefined || !declarations.hasTrigger || declarations.inputs.has(name)) return undefined
      return `${reads} ${quoted(`input.${name}`, 80)} in ${field.field}, which the trigger does not declare (${
        declarations.inputs.size === 0
          ? "it declares no inputs"
          : `its inputs: ${listed([...declarations.inputs.keys()])}`
      })`
    case "vars":
      return name === undefined || declarations.variables.has(name)
        ? undefined
        : `${reads} ${quoted(`vars.${name}`, 80)} in ${field.field}, which no node of the workflow sets`
    case "nodes":
      return name === undefined || topology.node(name) !== undefined
        ? undefined
        : `${reads} ${quoted(`nodes.${name}`, 80)} in ${field.field}, which is not a node of the graph`
    case "item":
    case "index": {
      const inBody = topology.inLoopBody.has(node.id) || (node.type === "loop" && field.moment === "iteration-end")
      return inBody ? undefined : `${reads} \`${root}\` in ${field.field}, which is only set inside a loop's body`
    }
    default:
      return `${reads} ${quoted(root)} in ${field.field}, which is none of ${listed(DOCUMENT)} (a variable is read as ${
        quoted(`vars.${root}`, 80)
      })`
  }
}

/** Unknown reads, node by node in graph order. */
export const unknownVariableProblems = (
  topology: Topology,
  declarations: Declarations,
  fields: ReadonlyMap<string, ReadonlyArray<CompiledField>>
): ReadonlyArray<PublishProblem> =>
  topology.nodes.flatMap((node) => {
    const reported = new Set<string>()
    const problems: Array<PublishProblem> = []
    for (const field of fields.get(node.id) ?? []) {
      for (const compiled of field.compiled) {
        for (const reference of compiled.references) {
          const key = `${reference.root}\u0000${reference.name ?? ""}`
          if (reported.has(key)) continue
          const why = unknown(topology, declarations, node, field, reference)
          if (why === undefined) continue
          reported.add(key)
          problems.push(error("unknown-variable", why, { nodeId: node.id, field: field.field }))
        }
      }
    }
    return problems
  })
