/**
 * The exits of each kind of node, by handle name (`""` is the unnamed exit of
 * a node that has a single way out), and what a node has written once it
 * leaves by one of them. The engine follows an edge only by an exit its
 * source has; validate-publish reports any other edge as `unknown-handle`.
 */
import type { WorkflowEdge } from "../WorkflowGraph.js"
import type { WorkflowNode } from "../WorkflowNode.js"

/** The handle of a node's only exit (edges leave it without `sourceHandle`). */
export const UNNAMED = ""

/** The exit an edge leaves its source by. */
export const handleOf = (edge: WorkflowEdge): string => edge.sourceHandle ?? UNNAMED

const routesErrors = (node: WorkflowNode): boolean =>
  (node.type === "llm" || node.type === "ai-agent" || node.type === "http") && node.data.onError === "route"

/** Every exit `node` has, in the order the editor shows them. */
export const exitsOf = (node: WorkflowNode): ReadonlyArray<string> => {
  switch (node.type) {
    case "condition":
      return ["true", "false"]
    case "switch":
      return [...node.data.cases.map((c) => c.name), "default"]
    case "loop":
      return ["body", "done"]
    case "wait":
      switch (node.data.for) {
        case "approval":
          return node.data.timeoutSeconds === undefined ? ["approved", "rejected"] : ["approved", "rejected", "timeout"]
        case "event":
          return node.data.timeoutSeconds === undefined ? [UNNAMED] : [UNNAMED, "timeout"]
        case "duration":
          return [UNNAMED]
      }
      break
    case "input":
      return node.data.timeoutSeconds === undefined ? [UNNAMED] : [UNNAMED, "timeout"]
    case "llm":
    case "ai-agent":
    case "http":
      return routesErrors(node) ? [UNNAMED, "error"] : [UNNAMED]
    case "trigger":
    case "parallel":
    case "join":
    case "transform":
    case "output":
      return [UNNAMED]
  }
}

/** The variable `node` has written once it leaves by `handle`, if any (a failure or a timeout writes none). */
export const variableSetOn = (node: WorkflowNode, handle: string): string | undefined => {
  if (handle === "error" || handle === "timeout") return undefined
  switch (node.type) {
    case "llm":
    case "ai-agent":
    case "http":
    case "transform":
      return node.data.outputVariable
    case "loop":
      return handle === "done" ? node.data.outputVariable : undefined
    case "wait":
      return node.data.for === "duration" ? undefined : node.data.outputVariable
    case "input":
      return node.data.variable
    default:
      return undefined
  }
}

/** Every variable `node` may write, on any exit. */
export const variablesSetBy = (node: WorkflowNode): ReadonlyArray<string> => {
  const set = exitsOf(node).map((handle) => variableSetOn(node, handle)).filter((name) => name !== undefined)
  return [...new Set(set)]
}

/** How a person names the exit in a message. */
export const describeExit = (handle: string): string => handle === UNNAMED ? "its only exit" : `\`${handle}\``
