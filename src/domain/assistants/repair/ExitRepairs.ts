/**
 * Repairs of a node's missing ways out, so that a repair never leaves the
 * flow with a problem it did not have:
 *
 * - A missing fallback (question, router, condition) leads to a "sorry" end
 *   of the node's sub-flow: an end node whose last message is the one the
 *   engine says at a dead end (`ENGINE_END_TEXT`), made once per sub-flow and
 *   shared. The nearest end node would say whatever the diagram's last step
 *   said ("Your table is booked, {{name}}"), which a user who was not
 *   understood never reached, and could read variables that path never set.
 * - Any other outcome without an edge (a dead end) leads to the nearest end
 *   node of the sub-flow (by distance on the canvas, ties to the first in the
 *   flow) that is safe on that path: every variable it reads is set on every
 *   way to the node (or by the node itself on that route). When none is, a
 *   silent end node is placed under the node.
 *
 * A choice question whose options lack edges gets one `answered` edge, which
 * serves every option. The start node is not repaired: where a conversation
 * should begin is for a person to say.
 */
import { ENGINE_END_TEXT } from "../../runtime/engine/EndTexts.js"
import { indexFlow } from "../analysis/FlowIndex.js"
import { edgeFor, liveEdges, outcomesOf, routeKey } from "../analysis/Outcomes.js"
import { startOf } from "../analysis/StartFindings.js"
import { certainlySetOnArrival } from "../analysis/VariableFindings.js"
import { readsOf, setOn } from "../analysis/VariableReads.js"
import type { EdgeRoute, FlowEdge } from "../FlowEdge.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"
import { freshEdgeId, freshNodeId } from "./FreshIds.js"

const LIMIT = 1_000_000

/** What the "sorry" end says: the engine's own words at a dead end. */
export const SORRY_END_TEXT = ENGINE_END_TEXT["dead-end"]

const distance = (a: FlowNode, b: FlowNode) => Math.hypot(a.position.x - b.position.x, a.position.y - b.position.y)

const below = (node: FlowNode, dx: number) => ({
  x: Math.min(node.position.x + dx, LIMIT),
  y: Math.min(node.position.y + 150, LIMIT)
})

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

const inSubflow = (graph: FlowGraph, node: FlowNode) =>
  graph.nodes.filter((item) => item.type === "end" && item.subflow === node.subflow && item.id !== node.id)

const isSorryEnd = (node: FlowNode) =>
  node.type === "end" && node.data.message === SORRY_END_TEXT && node.data.outcome === undefined

/** Whether every variable `end` reads is set on arrival by the route out of `node`. */
const safeOn = (graph: FlowGraph, node: FlowNode) => {
  let arrival: ReadonlySet<string> | undefined | null = null // computed on first need: it walks the whole flow
  const arrivalAtNode = () => {
    if (arrival !== null) return arrival
    const { start } = startOf(graph.nodes, graph.edges)
    arrival = start === undefined ? undefined : certainlySetOnArrival(indexFlow(graph), start).get(node.id)
    return arrival
  }
  return (end: FlowNode, route: EdgeRoute): boolean => {
    const reads = readsOf(end)
    if (reads.length === 0) return true
    const arrival = arrivalAtNode()
    if (arrival === undefined) return true // an unreached node makes nothing reachable
    const set = setOn(node, route)
    return reads.every((name) => arrival.has(name) || name === set)
  }
}

/** The graph with an edge for each of the node's missing outcomes and its fallback. */
export const addMissingExits = (graph: FlowGraph, node: FlowNode): FlowGraph => {
  const routes = missingRoutes(graph, node)
  if (routes.length === 0) return graph
  const nodeIds = new Set<string>(graph.nodes.map((item) => item.id))
  const added: Array<FlowNode> = []
  const make = (base: string, dx: number, data: { readonly message?: string }): FlowNode => {
    const made: FlowNode = {
      id: freshNodeId(base, nodeIds),
      type: "end",
      position: below(node, dx),
      ...(node.subflow === undefined ? {} : { subflow: node.subflow }),
      data
    }
    nodeIds.add(made.id)
    added.push(made)
    return made
  }
  const ends = inSubflow(graph, node)
  const nearest = ends
    .map((item, order) => ({ item, order, distance: distance(node, item) }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .map(({ item }) => item)
  const safe = safeOn(graph, node)
  let sorry = ends.find(isSorryEnd)
  let silent: FlowNode | undefined
  const targetOf = (route: EdgeRoute): FlowNode => {
    if (route.kind === "fallback") {
      sorry ??= make(node.subflow === undefined ? "sorry_end" : `${node.subflow}_sorry_end`, 200, {
        message: SORRY_END_TEXT
      })
      return sorry
    }
    const found = nearest.find((end) => safe(end, route))
    if (found !== undefined) return found
    silent ??= make(`${node.id}_end`, 0, {})
    return silent
  }
  const taken = new Set<string>(graph.edges.map((edge) => edge.id))
  const edges = routes.map((route): FlowEdge => {
    const id = freshEdgeId(`${node.id}-${routeKey(route).replace(" ", "-")}`, taken)
    taken.add(id)
    return { id, source: node.id, target: targetOf(route).id, ...route }
  })
  return { ...graph, nodes: [...graph.nodes, ...added], edges: [...graph.edges, ...edges] }
}
