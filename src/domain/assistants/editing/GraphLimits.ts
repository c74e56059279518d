import { Either } from "effect"
import { FLOW_LIMITS, InvalidFlow } from "../Flow.js"
import type { FlowGraph } from "../FlowStructure.js"

/**
 * The graph itself when it holds no more nodes and edges than a flow may
 * (`FLOW_LIMITS`), else the `InvalidFlow` saying which limit a write would
 * pass; nothing is written then.
 */
export const checkFlowLimits = <G extends FlowGraph>(graph: G): Either.Either<G, InvalidFlow> =>
  graph.nodes.length > FLOW_LIMITS.nodes
    ? Either.left(
      new InvalidFlow({ message: `A flow holds at most ${FLOW_LIMITS.nodes} nodes`, problems: [] })
    )
    : graph.edges.length > FLOW_LIMITS.edges
    ? Either.left(
      new InvalidFlow({ message: `A flow holds at most ${FLOW_LIMITS.edges} edges`, problems: [] })
    )
    : Either.right(graph)
