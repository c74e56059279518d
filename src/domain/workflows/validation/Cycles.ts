/**
 * `cycle-without-exit`, an error: loops are the only bounded repetition (at
 * most `maxIterations` times), so every cycle of the graph must leave a loop
 * node by its `body` exit and come back to it. Removing every loop's `body`
 * edges breaks all such cycles; any cycle left over (a strongly connected
 * set of nodes, or a node with an edge to itself) could repeat forever.
 * Linear in nodes and edges (`stronglyConnected`).
 */
import { stronglyConnected } from "../../StronglyConnected.js"
import type { PublishProblem } from "../PublishProblem.js"
import { error, listed } from "./Problems.js"
import type { LiveEdge, Topology } from "./Topology.js"

const bounded = (live: LiveEdge): boolean => live.source.type === "loop" && live.handle === "body"

/** One error per cycle that does not go round a loop's body, on its first node in graph order. */
export const cycleProblems = (topology: Topology): ReadonlyArray<PublishProblem> => {
  const steps = new Map<string, ReadonlyArray<string>>(
    topology.nodes.map((node) => [
      node.id,
      topology.exits(node.id).filter((live) => !bounded(live)).map((live) => live.target.id)
    ])
  )
  const rank = (id: string) => topology.order.get(id)!
  return stronglyConnected<string>(topology.nodes.map((node) => node.id), (id) => steps.get(id)!)
    .filter((component) => component.length > 1 || steps.get(component[0]!)!.includes(component[0]!))
    .map((component) => [...component].sort((a, b) => rank(a) - rank(b)))
    .sort((a, b) => rank(a[0]!) - rank(b[0]!))
    .map((cycle) =>
      error(
        "cycle-without-exit",
        cycle.length === 1
          ? `Node ${cycle[0]} has an edge to itself: it could repeat forever (repeat with a loop node instead)`
          : `Nodes ${
            listed(cycle)
          } form a cycle that does not go round a loop's body, so it could repeat forever (repeat with a loop node instead)`,
        { nodeId: topology.node(cycle[0]!)!.id }
      )
    )
}
