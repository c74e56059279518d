/**
 * The shapes the interpreter's walk shares between its parts (`RunWorkflow`
 * walks; `LoopVisits`, `ParallelVisits` and `WaitVisits` visit the nodes that
 * take more than one execution): where a walk is, how it ends, and the
 * walker's own operations.
 */
import type { Effect } from "effect"
import type { WorkflowNodeId } from "../Ids.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import type { GraphIndex } from "./GraphIndex.js"
import type { Execution, NodeOf, Step } from "./NodeExecutions.js"
import type { KeyScope, NodeKey } from "./NodeKey.js"
import type { NodeResult } from "./NodeResult.js"
import type { LoopItem, RunState } from "./RunState.js"
import type { WorkflowHooks } from "./WorkflowHooks.js"
import type { WorkflowRunFailed } from "./WorkflowRunFailed.js"

/** Where a walk is and where it must stop. */
export interface Walk {
  readonly scope: KeyScope
  readonly loop: LoopItem | undefined
  /** The loop whose body this is: reaching it ends the iteration. */
  readonly loopId: WorkflowNodeId | undefined
  /** A parallel's branch stops at the first join it reaches. */
  readonly inBranch: boolean
}

/** How a walk ended: no path left, back at its loop, or (a branch) at a join. */
export type WalkEnd =
  | { readonly _tag: "End"; readonly state: RunState }
  | { readonly _tag: "AtLoop"; readonly state: RunState }
  | { readonly _tag: "AtJoin"; readonly join: NodeOf<"join">; readonly state: RunState }

/** What visiting a node leads to: the next node (none: the path ends), or the end of the walk. */
export type Visited =
  | { readonly _tag: "Next"; readonly state: RunState; readonly next: WorkflowNodeId | undefined }
  | WalkEnd

/** Go on to `nodeId` in `state`. */
export const next = (state: RunState, nodeId: WorkflowNodeId | undefined): Visited => ({
  _tag: "Next",
  state,
  next: nodeId
})

/** What the walk of one run offers the nodes it visits. */
export interface Walker<E, R> {
  readonly index: GraphIndex
  readonly hooks: WorkflowHooks<E, R>
  /** Runs one execution through the caller's hook, counting it against the run's limit. */
  readonly execute: (
    key: NodeKey,
    node: WorkflowNode,
    step: Step<R>
  ) => Effect.Effect<NodeResult, WorkflowRunFailed | E, R>
  readonly executionOf: <N extends WorkflowNode>(node: N, key: NodeKey, state: RunState, walk: Walk) => Execution<N, R>
  /** Walks from the target of an edge that leaves `from`; no target, no walk. */
  readonly walkFrom: (
    target: WorkflowNodeId | undefined,
    from: WorkflowNode,
    state: RunState,
    where: Walk
  ) => Effect.Effect<WalkEnd, WorkflowRunFailed | E, R>
}
