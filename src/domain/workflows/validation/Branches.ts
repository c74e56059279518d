/**
 * Exits that lead nowhere, and nodes without the branches they exist for.
 *
 * `missing-branch` severities: the engine ends a path silently when a node
 * leaves by an exit no edge leaves by, so an exit that some run is bound to
 * take and that has no edge is an error: that run stops there without an
 * output. This holds for a condition's `true` and `false` (a test takes both
 * sooner or later), a loop's `done` and an approval's `approved`. A switch
 * case or `default` without an edge, and an approval's `rejected`, are
 * warnings: a case may be rare or kept for later, values outside the cases
 * may be impossible, and stopping when a person rejects is a plausible
 * intent. A node whose onError is `route` without an `error` edge is a
 * warning too: the engine then fails the run on a failure, as with `fail`,
 * which is safe but not what the author asked for.
 *
 * `loop-without-body` is an error: a loop without a body (or whose body edge
 * leads straight back to it) repeats nothing. A body may end without coming
 * back (the iteration ends with its path). A join with fewer than two ways
 * in (`join-without-branches`) is a warning: the engine passes the run
 * through it, harmless but surely not meant. The branches of a parallel
 * meeting at different joins (`parallel-joins-apart`, `ParallelJoins.ts`)
 * is an error: the engine cannot run it.
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { parallelJoinProblems } from "./ParallelJoins.js"
import { error, quoted, warning } from "./Problems.js"
import type { Topology } from "./Topology.js"

const missing = (topology: Topology, node: WorkflowNode, handle: string): boolean =>
  !topology.exits(node.id).some((live) => live.handle === handle)

const branchProblems = (topology: Topology, node: WorkflowNode): ReadonlyArray<PublishProblem> => {
  const absent = (handle: string) => missing(topology, node, handle)
  const place = { nodeId: node.id }
  switch (node.type) {
    case "condition":
      return ["true", "false"].filter(absent).map((handle) =>
        error(
          "missing-branch",
          `Condition ${node.id} has no edge for \`${handle}\`: a run where it is ${handle} stops there`,
          place
        )
      )
    case "switch": {
      const cases = node.data.cases.flatMap((c, index) =>
        absent(c.name)
          ? [warning(
            "missing-branch",
            `Switch ${node.id} has no edge for its case ${quoted(c.name)}: a run that matches it stops there`,
            { ...place, field: `data.cases.${index}` }
          )]
          : []
      )
      const fallback = absent("default")
        ? [warning(
          "missing-branch",
          `Switch ${node.id} has no edge for \`default\`: a run whose value matches no case stops there`,
          place
        )]
        : []
      return [...cases, ...fallback]
    }
    case "loop":
      return absent("done")
        ? [error("missing-branch", `Loop ${node.id} has no edge for \`done\`: every run stops after the loop`, place)]
        : []
    case "wait":
      if (node.data.for !== "approval") return []
      return [
        ...(absent("approved")
          ? [
            error("missing-branch", `Wait ${node.id} has no edge for \`approved\`: an approved run stops there`, place)
          ]
          : []),
        ...(absent("rejected")
          ? [
            warning("missing-branch", `Wait ${node.id} has no edge for \`rejected\`: a rejected run stops there`, place)
          ]
          : [])
      ]
    case "llm":
    case "ai-agent":
    case "http":
      return node.data.onError === "route" && absent("error")
        ? [warning(
          "missing-branch",
          `Node ${node.id} routes its failures (onError is \`route\`) but has no \`error\` edge, so a failure fails the run: connect one, or set onError to \`fail\``,
          { ...place, field: "data.onError" }
        )]
        : []
    default:
      return []
  }
}

const joinProblems = (topology: Topology, node: WorkflowNode): ReadonlyArray<PublishProblem> => {
  if (node.type !== "join") return []
  const ways = topology.entries(node.id).length
  return ways >= 2 ? [] : [
    warning(
      "join-without-branches",
      `Join ${node.id} has ${ways === 0 ? "no way" : "one way"} in; a join waits for two or more concurrent branches`,
      { nodeId: node.id }
    )
  ]
}

const loopProblems = (topology: Topology, node: WorkflowNode): ReadonlyArray<PublishProblem> => {
  if (node.type !== "loop") return []
  if (missing(topology, node, "body")) {
    return [error("loop-without-body", `Loop ${node.id} has no edge for \`body\`, so it repeats nothing`, {
      nodeId: node.id
    })]
  }
  return topology.loopBody(node.id).size > 0 ? [] : [
    error("loop-without-body", `Loop ${node.id}'s \`body\` edge leads straight back to it, so it repeats nothing`, {
      nodeId: node.id
    })
  ]
}

/** Missing branches, joins without branches, parallels whose branches meet apart, loops without a body. */
export const branchesProblems = (topology: Topology): ReadonlyArray<PublishProblem> => [
  ...topology.nodes.flatMap((node) => [
    ...branchProblems(topology, node),
    ...joinProblems(topology, node),
    ...loopProblems(topology, node)
  ]),
  ...parallelJoinProblems(topology)
]
