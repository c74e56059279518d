/**
 * Repairs of a node's missing ways out: each outcome without an edge (a dead
 * end) and a missing fallback (question, router, condition) gets an edge to
 * the nearest end node of the node's sub-flow (by distance on the canvas,
 * ties to the first in the flow), or, when the sub-flow has none, to a new
 * end node placed under the node. A choice question whose options lack edges
 * gets one `answered` edge, which serves every option. The start node is not
 * repaired: where a conversation should begin is for a person to say.
 */
import { edgeFor, outcomesOf, routeKey } from "../analysis/Outcomes.js"
import { liveEdges } from "../analysis/Outcomes.js"
import type { EdgeRoute, FlowEdge } from "../FlowEdge.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"
import { freshEdgeId, freshNodeId } from "./FreshIds.js"

const LIMIT = 1_000_000

const distance = (a: FlowNode, b: FlowNode) => Math.hypot(a.position.x - b.position.x, a.position.y - b.position.y)

/** The routes the node needs an edge for, in its outcomes' order, each once. */
const missingRoutes = (graph: FlowGraph, node: FlowNode): ReadonlyArray<EdgeRoute> => {
  if (node.type === "start") return []
  const live = liveEdges(node, graph.edges)
  const routes = new Map<string, EdgeRoute>()
  for (const outcome of outcomesOf(node)) {
    if (edgeFor(outcome, live) !== undefined) continue
    const route = node.type === "question" && outcome.routes.length > 1 ? outcome.routes[1]! : outcome.routes[0]!
    routes.set(routeKey(route), route)
  }
  return [...routes.values()]
}

/** The graph with an edge for each of the node's missing outcomes and its fallback. */
export const addMissingExits = (graph: FlowGraph, node: FlowNode): FlowGraph => {
  const routes = missingRoutes(graph, node)
  if (routes.length === 0) return graph
  const ends = graph.nodes
    .filter((item) => item.type === "end" && item.subflow === node.subflow && item.id !== node.id)
    .map((item, order) => ({ item, order, distance: distance(node, item) }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
  let nodes = graph.nodes
  let target = ends[0]?.item
  if (target === undefined) {
    target = {
      id: freshNodeId(`${node.id}_end`, new Set(graph.nodes.map((item) => item.id))),
      type: "end",
      position: { x: node.position.x, y: Math.min(node.position.y + 150, LIMIT) },
      ...(node.subflow === undefined ? {} : { subflow: node.subflow }),
      data: {}
    }
    nodes = [...nodes, target]
  }
  const taken = new Set(graph.edges.map((edge) => edge.id))
  const added = routes.map((route): FlowEdge => {
    const id = freshEdgeId(`${node.id}-${routeKey(route).replace(" ", "-")}`, taken)
    taken.add(id)
    return { id, source: node.id, target: target.id, ...route }
  })
  return { ...graph, nodes, edges: [...graph.edges, ...added] }
}
