/**
 * `variable-before-set`: a node reads a variable (`vars.<name>`) or another
 * node's output (`nodes.<id>`) that is not written before it on every path
 * from the trigger (see `Dataflow`). Written before it on no path at all
 * (only after it, only on a concurrent branch, only by a node no run
 * reaches) is an error: every run reads nothing there. Written on some paths
 * only (one branch of a condition, the body of a loop that may have no
 * items, an earlier iteration) is a warning: some runs read nothing, which
 * may be handled (`$exists(vars.x)` is a test, not a read, and is never
 * reported). Reads of what no node writes are `unknown-variable` instead;
 * nodes no run reaches are not checked.
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { CompiledField } from "./CompiledFields.js"
import { dataflowOf } from "./Dataflow.js"
import type { Declarations } from "./Declarations.js"
import type { Reference } from "./ExpressionReads.js"
import { error, listed, quoted, warning } from "./Problems.js"
import type { Topology } from "./Topology.js"

/** The key of a read that some node of the graph writes, or `undefined`. */
const keyOf = (topology: Topology, declarations: Declarations, reference: Reference): string | undefined => {
  if (reference.tested || reference.name === undefined) return undefined
  if (reference.root === "vars" && declarations.variables.has(reference.name)) return `vars.${reference.name}`
  if (reference.root === "nodes" && topology.node(reference.name) !== undefined) return `nodes.${reference.name}`
  return undefined
}

/** Reads before writes, node by node in graph order, once per node, key and moment. */
export const variableOrderProblems = (
  topology: Topology,
  declarations: Declarations,
  fields: ReadonlyMap<string, ReadonlyArray<CompiledField>>
): ReadonlyArray<PublishProblem> => {
  const reads = topology.nodes.flatMap((node) =>
    !topology.reachable.has(node.id) ?
      [] :
      (fields.get(node.id) ?? []).flatMap((field) =>
        field.compiled.flatMap((compiled) =>
          compiled.references.flatMap((reference) => {
            const key = keyOf(topology, declarations, reference)
            return key === undefined ? [] : [{ node, field, key, reference }]
          })
        )
      )
  )
  if (reads.length === 0) return []
  const flow = dataflowOf(topology, [...new Set(reads.map((read) => read.key))])
  const reported = new Set<string>()
  const problems: Array<PublishProblem> = []
  for (const { field, key, node, reference } of reads) {
    const once = `${node.id}\u0000${key}\u0000${field.moment}`
    const written = flow.at(node.id, field.moment)
    if (reported.has(once) || written === undefined || written.certain(key)) continue
    reported.add(once)
    const name = reference.name!
    const writers = reference.root === "vars"
      ? `it is set by ${listed(declarations.variables.get(name)!)}`
      : `node ${name} writes it when it runs`
    const place = { nodeId: node.id, field: field.field }
    const what = `Node ${node.id} reads ${quoted(key, 80)} in ${field.field}`
    problems.push(
      written.possible(key)
        ? warning(
          "variable-before-set",
          `${what}, which only some paths from the trigger set before it (${writers})`,
          place
        )
        : error("variable-before-set", `${what}, which no path from the trigger sets before it (${writers})`, place)
    )
  }
  return problems
}
