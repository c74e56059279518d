/**
 * What a conversation on the draft does when the draft it runs has been
 * edited into a graph that cannot run at all (its start node deleted, say):
 * it ends at once, telling the tester why, rather than guessing at a graph
 * that no longer holds together. Sessions on a deployment never meet this: a
 * deployment is a snapshot that was runnable when it was made.
 */
import type { Finding } from "../assistants/FlowFinding.js"
import type { Step } from "./engine/FlowEngine.js"
import type { SessionState } from "./RuntimeSession.js"

/** The step that ends a session whose draft no longer compiles. */
export const endedByDraft = (state: SessionState, findings: ReadonlyArray<Finding>): Step => {
  const nodeId = state.nodeId
  return {
    messages: nodeId === null ? [] : [
      {
        type: "end",
        nodeId,
        outcome: "flow-not-runnable",
        text: `The draft flow cannot run any more: ${findings.map((finding) => finding.message).join("; ")}`
      }
    ],
    state: { ...state, status: "ended", nodeId: null },
    path: [],
    nlu: null
  }
}
