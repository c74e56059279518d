/**
 * Whether a flow graph is well-formed: the rules every write keeps (see
 * `Flow.ts`). Ids are unique per kind, every edge joins two nodes of the
 * graph, and every node that names a sub-flow names one the graph declares.
 * Everything else a draft may still get wrong (unreachable nodes, jumps to
 * nowhere, a sub-flow's entry) is the analysis's to report, not a write's to refuse.
 */
import { Either } from "effect"
import { type FlowStructureProblem, InvalidFlow, type Subflow } from "./Flow.js"
import type { FlowEdge } from "./FlowEdge.js"
import type { FlowNode } from "./FlowNode.js"

/** The parts of a flow the structure concerns. */
export interface FlowGraph {
  readonly nodes: ReadonlyArray<FlowNode>
  readonly edges: ReadonlyArray<FlowEdge>
  readonly subflows: ReadonlyArray<Subflow>
}

type Problem = typeof FlowStructureProblem.Type

/** Each id that occurs more than once, once, in order of its first repeat. */
const repeated = (ids: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const id of ids) {
    if (seen.has(id)) twice.add(id)
    else seen.add(id)
  }
  return [...twice]
}

/** Every way the graph is not well-formed; empty when it is. */
export const flowStructureProblems = (graph: FlowGraph): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  for (const id of repeated(graph.nodes.map((node) => node.id))) {
    problems.push({ code: "duplicate-node-id", message: `Two nodes have the id ${id}`, nodeIds: [id], edgeIds: [] })
  }
  for (const id of repeated(graph.edges.map((edge) => edge.id))) {
    problems.push({ code: "duplicate-edge-id", message: `Two edges have the id ${id}`, nodeIds: [], edgeIds: [id] })
  }
  for (const id of repeated(graph.subflows.map((subflow) => subflow.id))) {
    problems.push({
      code: "duplicate-subflow-id",
      message: `Two sub-flows have the id ${id}`,
      nodeIds: [],
      edgeIds: []
    })
  }
  const nodeIds = new Set<string>(graph.nodes.map((node) => node.id))
  for (const edge of graph.edges) {
    const missing = [...new Set([edge.source, edge.target])].filter((id) => !nodeIds.has(id))
    if (missing.length > 0) {
      problems.push({
        code: "unknown-edge-endpoint",
        message: `Edge ${edge.id} joins ${missing.join(" and ")}, which ${
          missing.length === 1 ? "is not a node" : "are not nodes"
        } of the flow`,
        nodeIds: missing,
        edgeIds: [edge.id]
      })
    }
  }
  const subflowIds = new Set<string>(graph.subflows.map((subflow) => subflow.id))
  for (const node of graph.nodes) {
    if (node.subflow !== undefined && !subflowIds.has(node.subflow)) {
      problems.push({
        code: "unknown-subflow",
        message: `Node ${node.id} is in the sub-flow ${node.subflow}, which the flow does not declare`,
        nodeIds: [node.id],
        edgeIds: []
      })
    }
  }
  return problems
}

/** The graph itself when it is well-formed, or the `InvalidFlow` that lists every problem. */
export const checkFlowStructure = <G extends FlowGraph>(graph: G): Either.Either<G, InvalidFlow> => {
  const problems = flowStructureProblems(graph)
  return problems.length === 0 ? Either.right(graph) : Either.left(
    new InvalidFlow({
      message: problems.length === 1
        ? `The flow is not well-formed: ${problems[0]!.message}`
        : `The flow is not well-formed: ${problems.length} problems`,
      problems
    })
  )
}
