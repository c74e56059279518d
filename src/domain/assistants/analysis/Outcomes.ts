/**
 * Which outcomes each node can take and which edges route them, as the
 * engine follows them (see `NodeArrival` and `WaitingNodes`): `next` after
 * start, message and set-variable; a question's `answered` (a choice's
 * `option` edge first, else `answered`) and `fallback`; a router's `intent`
 * per listed intent and `fallback`; a condition's `case` per case and
 * `fallback`; `next` and `error` after http and ai; nothing after handoff,
 * jump and end. Of two edges for one outcome the first in the flow wins.
 */
import type { EdgeRoute, FlowEdge } from "../FlowEdge.js"
import type { FlowNode } from "../FlowNode.js"

/** One thing a node can do next, and the routes that serve it, the first with an edge winning. */
export interface Outcome {
  /** How a sentence names it: `next`, `option small`, `intent refund`, `fallback`. */
  readonly name: string
  readonly routes: ReadonlyArray<EdgeRoute>
  readonly fallback: boolean
}

/** The key of a route out of a node: one edge per key is followed. */
export const routeKey = (route: EdgeRoute): string => {
  switch (route.kind) {
    case "option":
      return `option ${route.option}`
    case "intent":
      return `intent ${route.intent}`
    case "case":
      return `case ${route.case}`
    default:
      return route.kind
  }
}

const next: Outcome = { name: "next", routes: [{ kind: "next" }], fallback: false }
const fallback: Outcome = { name: "fallback", routes: [{ kind: "fallback" }], fallback: true }
const failed: Outcome = { name: "error", routes: [{ kind: "error" }], fallback: false }

/** Every outcome `node` can take. */
export const outcomesOf = (node: FlowNode): ReadonlyArray<Outcome> => {
  switch (node.type) {
    case "start":
    case "message":
    case "set-variable":
      return [next]
    case "question": {
      const validation = node.data.validation
      const answered: ReadonlyArray<Outcome> = validation.kind === "choice"
        ? validation.options.map((option) => ({
          name: `option ${option.value}`,
          routes: [{ kind: "option", option: option.value }, { kind: "answered" }],
          fallback: false
        }))
        : [{ name: "answered", routes: [{ kind: "answered" }], fallback: false }]
      return [...answered, fallback]
    }
    case "intent-router":
      return [
        ...[...new Set(node.data.intents)].map((intent): Outcome => ({
          name: `intent ${intent}`,
          routes: [{ kind: "intent", intent }],
          fallback: false
        })),
        fallback
      ]
    case "condition":
      return [
        ...[...new Set(node.data.cases.map((c) => c.key))].map((key): Outcome => ({
          name: `case ${key}`,
          routes: [{ kind: "case", case: key }],
          fallback: false
        })),
        fallback
      ]
    case "http":
    case "ai":
      return [next, failed]
    case "handoff":
    case "jump":
    case "end":
      return []
  }
}

/** Whether some outcome of `node` can follow `edge` (an edge that none can is dangling). */
export const takes = (node: FlowNode, edge: FlowEdge): boolean => {
  const key = routeKey(edge)
  return outcomesOf(node).some((outcome) => outcome.routes.some((route) => routeKey(route) === key))
}

/** The edges the engine would follow out of `node`: the first edge of each route it takes, by route key. */
export const liveEdges = (node: FlowNode, edges: ReadonlyArray<FlowEdge>): ReadonlyMap<string, FlowEdge> => {
  const live = new Map<string, FlowEdge>()
  for (const edge of edges) {
    if (edge.source !== node.id || !takes(node, edge)) continue
    const key = routeKey(edge)
    if (!live.has(key)) live.set(key, edge)
  }
  return live
}

/** The edge an outcome follows, if it has one. */
export const edgeFor = (outcome: Outcome, live: ReadonlyMap<string, FlowEdge>): FlowEdge | undefined => {
  for (const route of outcome.routes) {
    const edge = live.get(routeKey(route))
    if (edge !== undefined) return edge
  }
  return undefined
}
