/**
 * The graph's outline: exactly one trigger, at least one output, and edges
 * that join two existing nodes by an exit the source has, one edge per exit
 * except out of a parallel. All are errors: a run cannot start without a
 * trigger or choose between two, a run that ends without an output gives
 * its caller nothing, an edge the engine cannot follow is a connection the
 * author drew and the run would silently ignore, and a second edge on one
 * exit makes the run fail there (the engine refuses to guess which to take).
 * The last has no code of its own and is reported as `unknown-handle`, the
 * check of what an edge may leave by.
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowEdge } from "../WorkflowGraph.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { describeExit, exitsOf, handleOf, UNNAMED } from "./Exits.js"
import { error, listed, quoted } from "./Problems.js"
import type { Topology } from "./Topology.js"

const triggerProblems = (topology: Topology): ReadonlyArray<PublishProblem> => {
  const [first, ...others] = topology.triggers
  if (first === undefined) return [error("no-trigger", "The workflow has no trigger node, so no run can start")]
  return others.map((node) =>
    error(
      "several-triggers",
      `Node ${node.id} is a second trigger; a workflow starts at one trigger (the first is ${first.id})`,
      { nodeId: node.id }
    )
  )
}

const outputProblems = (topology: Topology): ReadonlyArray<PublishProblem> =>
  topology.nodes.some((node) => node.type === "output")
    ? []
    : [error("no-output", "The workflow has no output node, so no run can say what it produced")]

const danglingProblem = (topology: Topology, edge: WorkflowEdge): ReadonlyArray<PublishProblem> => {
  const missing = [edge.source, edge.target].filter((id) => topology.node(id) === undefined)
  if (missing.length === 0) return []
  const present = [edge.source, edge.target].find((id) => topology.node(id) !== undefined)
  return [
    error(
      "dangling-edge",
      `Edge ${edge.id} connects ${listed([...new Set(missing)].map((id) => quoted(id)))}, which ${
        missing.length === 1 ? "is not a node" : "are not nodes"
      } of the graph`,
      { nodeId: present === undefined ? undefined : topology.node(present)!.id, edgeId: edge.id }
    )
  ]
}

const handleProblem = (source: WorkflowNode, edge: WorkflowEdge): ReadonlyArray<PublishProblem> => {
  const handle = handleOf(edge)
  const exits = exitsOf(source)
  if (exits.includes(handle)) return []
  const place = { nodeId: source.id, edgeId: edge.id }
  if (handle === "error" && (source.type === "llm" || source.type === "ai-agent" || source.type === "http")) {
    return [
      error(
        "unknown-handle",
        `Edge ${edge.id} leaves ${source.type} node ${source.id} by \`error\`, but its onError is \`fail\`: ` +
          "set onError to `route` to follow this edge when the call fails",
        { ...place, field: "data.onError" }
      )
    ]
  }
  const canTimeOut = source.type === "input" || source.type === "wait" && source.data.for !== "duration"
  if (handle === "timeout" && canTimeOut) {
    return [
      error(
        "unknown-handle",
        `Edge ${edge.id} leaves ${source.type} node ${source.id} by \`timeout\`, but the node has no timeoutSeconds`,
        { ...place, field: "data.timeoutSeconds" }
      )
    ]
  }
  const expected = exits.length === 1 && exits[0] === UNNAMED
    ? "it has a single exit, which edges leave without a handle"
    : `its exits are ${listed(exits.map(describeExit))}`
  return [
    error(
      "unknown-handle",
      handle === UNNAMED
        ? `Edge ${edge.id} leaves ${source.type} node ${source.id} without a handle; ${expected}`
        : `Edge ${edge.id} leaves ${source.type} node ${source.id} by ${
          quoted(handle)
        }, which it does not have; ${expected}`,
      place
    )
  ]
}

const sharedExitProblems = (topology: Topology): ReadonlyArray<PublishProblem> =>
  topology.nodes.flatMap((node) => {
    if (node.type === "parallel") return []
    const first = new Map<string, WorkflowEdge>()
    return topology.exits(node.id).flatMap(({ edge, handle }) => {
      const taken = first.get(handle)
      if (taken === undefined) {
        first.set(handle, edge)
        return []
      }
      return [
        error(
          "unknown-handle",
          `Edges ${taken.id} and ${edge.id} both leave ${node.type} node ${node.id} by ${
            describeExit(handle)
          }; only a parallel node may start several edges from one exit (a run fails there)`,
          { nodeId: node.id, edgeId: edge.id }
        )
      ]
    })
  })

/** Trigger, output, dangling-edge and unknown-handle problems. */
export const shapeProblems = (topology: Topology): ReadonlyArray<PublishProblem> => {
  const edges: Array<PublishProblem> = []
  const seen = new Set<string>()
  for (const edge of topology.graph.edges) {
    if (seen.has(edge.id)) continue
    seen.add(edge.id)
    const dangling = danglingProblem(topology, edge)
    edges.push(...dangling)
    if (dangling.length === 0) edges.push(...handleProblem(topology.node(edge.source)!, edge))
  }
  return [...triggerProblems(topology), ...outputProblems(topology), ...edges, ...sharedExitProblems(topology)]
}
