/**
 * The workflow graph interpreter: runs a graph from its trigger, node by
 * node, through caller-supplied hooks (see `WorkflowHooks`).
 *
 * Replay-safety is the design: the path a run takes, the keys it asks for and
 * the state it ends in are a function of the graph, the input and what the
 * hooks answered (`execute`'s results, `awaitPayload`'s payloads), nothing
 * else. Every piece of work that could differ between two runs (an
 * expression reading `$now()`, a call out) happens inside an execution whose
 * result the journal keeps; the walk between them is pure, keys are counted
 * per scope (see `NodeKey`), parallel branches are merged in edge order, and
 * no decision reads a clock, a random number or a map's iteration order.
 *
 * Walking: a node leaves by the exit its result names (`true`/`false`, a
 * case, `error`, `approved`...; absent for its only exit); an exit no edge
 * leaves by ends that path, and the run completes when no path is left. A
 * loop runs its `body` once per item until control comes back to the loop
 * (or the body's path ends), then leaves by `done`. A parallel starts each
 * outgoing edge as a branch (at most `maxConcurrency` at once); a branch runs
 * until it reaches a join, ends, or comes back to the loop around it. A join
 * waiting for `all` continues once every branch has settled, with their
 * changes applied in edge order; a join waiting for the `first` continues
 * with the first branch to reach it (the choice is the join's execution
 * result, so a replay follows the branch the journal chose) and interrupts
 * the others. A join met outside a parallel passes control on. (The nodes
 * that take several executions have their own modules: `LoopVisits`,
 * `ParallelVisits`, `WaitVisits`; what one execution does is in
 * `NodeExecutions`.)
 *
 * Bounds: at most `maxNodeExecutions` executions per run (`max-iterations`
 * failure beyond), a loop's own `maxIterations`, `MAX_INPUT_ASKS` answers to
 * one input node, and the expression evaluator's step budget.
 */
import { Effect, Schema } from "effect"
import { JsonObject, type JsonValue } from "../../Json.js"
import type { WorkflowNodeId } from "../Ids.js"
import type { WorkflowGraph } from "../WorkflowGraph.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { WorkflowOutput } from "../WorkflowSimTurn.js"
import { agent, http, llm } from "./CallExecutions.js"
import { type GraphIndex, indexGraph } from "./GraphIndex.js"
import { visitLoop } from "./LoopVisits.js"
import { condition, type Execution, output, passOn, type Step, switchOn, transform, trigger } from "./NodeExecutions.js"
import { nextVisit, type NodeKey, rootScope } from "./NodeKey.js"
import type { NodeResult } from "./NodeResult.js"
import { visitParallel } from "./ParallelVisits.js"
import { validateRunInput } from "./RunInput.js"
import { applyResult, type RunState } from "./RunState.js"
import { visitInput, visitWait } from "./WaitVisits.js"
import { next, type Visited, type Walk, type WalkEnd, type Walker } from "./Walk.js"
import type { ExpressionCache } from "./WorkflowExpressions.js"
import type { WorkflowHooks } from "./WorkflowHooks.js"
import { failedAt, type WorkflowRunFailed } from "./WorkflowRunFailed.js"

export { MAX_INPUT_ASKS } from "./WaitVisits.js"

/** The most node executions one run may make (every execution counts, replayed ones included). */
export const MAX_NODE_EXECUTIONS = 10_000

/** A run that reached the end of every path: what output nodes emitted, in order, and the final variables. */
export const WorkflowCompleted = Schema.Struct({
  outputs: Schema.Array(WorkflowOutput),
  vars: JsonObject,
  /** Each node's last output, by node id. */
  nodes: JsonObject
}).annotations({ identifier: "WorkflowCompleted" })
export type WorkflowCompleted = typeof WorkflowCompleted.Type

/** Limits a caller may lower (tests) or raise. */
export interface RunOptions {
  readonly maxNodeExecutions?: number
}

/**
 * Runs a workflow graph from its trigger with `input` (checked against the
 * trigger's declared inputs, defaults applied). Fails with `WorkflowRunFailed`
 * (code and node) or with whatever the caller's hooks fail with.
 */
export const runWorkflow = <E = never, R = never>(
  graph: WorkflowGraph,
  input: JsonValue | undefined,
  hooks: WorkflowHooks<E, R>,
  options: RunOptions = {}
): Effect.Effect<WorkflowCompleted, WorkflowRunFailed | E, R> =>
  Effect.gen(function*() {
    const index = indexGraph(graph)
    const start = yield* index.trigger
    const checked = yield* validateRunInput(start, input)
    const walker = makeWalker(index, hooks, options.maxNodeExecutions ?? MAX_NODE_EXECUTIONS)
    const top: Walk = { scope: rootScope(), loop: undefined, loopId: undefined, inBranch: false }
    const end = yield* walker.walk(start, { input: checked, vars: {}, nodes: {}, outputs: [] }, top)
    return { outputs: end.state.outputs, vars: end.state.vars, nodes: end.state.nodes }
  })

const makeWalker = <E, R>(index: GraphIndex, hooks: WorkflowHooks<E, R>, maxExecutions: number) => {
  const cache: ExpressionCache = new Map()
  let executions = 0

  const execute = (
    key: NodeKey,
    node: WorkflowNode,
    step: Step<R>
  ): Effect.Effect<NodeResult, WorkflowRunFailed | E, R> =>
    Effect.suspend(() => {
      executions += 1
      return executions > maxExecutions
        ? Effect.fail(
          failedAt(node.id, "max-iterations", `the run reached its limit of ${maxExecutions} node executions`)
        )
        : hooks.execute(key, node, step)
    })

  const executionOf = <N extends WorkflowNode>(
    node: N,
    key: NodeKey,
    state: RunState,
    walk: Walk
  ): Execution<N, R> => ({
    node,
    key,
    state,
    loop: walk.loop,
    iteration: walk.loop?.index,
    cache,
    hooks,
    hasExit: (handle) => index.hasExit(node, handle)
  })

  const walkFrom = (
    target: WorkflowNodeId | undefined,
    from: WorkflowNode,
    state: RunState,
    where: Walk
  ): Effect.Effect<WalkEnd, WorkflowRunFailed | E, R> =>
    target === undefined
      ? Effect.succeed<WalkEnd>({ _tag: "End", state })
      : Effect.flatMap(index.node(target, from), (node) => walkNodes(node, state, where))

  const walker: Walker<E, R> = { index, hooks, execute, executionOf, walkFrom }

  const visit = (node: WorkflowNode, state: RunState, walk: Walk): Effect.Effect<Visited, WorkflowRunFailed | E, R> => {
    switch (node.type) {
      case "loop":
        return visitLoop(walker, node, state, walk)
      case "parallel":
        return visitParallel(walker, node, state, walk)
      case "wait":
        return visitWait(walker, node, state, walk)
      case "input":
        return visitInput(walker, node, state, walk)
      default:
        return Effect.gen(function*() {
          const key = nextVisit(walk.scope, node.id)
          const result = yield* execute(key, node, single(node, executionOf(node, key, state, walk)))
          return next(applyResult(state, node, result), yield* index.next(node, result.handle))
        })
    }
  }

  const walkNodes = (
    first: WorkflowNode,
    state: RunState,
    where: Walk
  ): Effect.Effect<WalkEnd, WorkflowRunFailed | E, R> =>
    Effect.gen(function*() {
      let node: WorkflowNode | undefined = first
      let now = state
      while (node !== undefined) {
        if (node.id === where.loopId) return { _tag: "AtLoop", state: now } as const
        if (node.type === "join" && where.inBranch) return { _tag: "AtJoin", join: node, state: now } as const
        const visited: Visited = yield* visit(node, now, where)
        if (visited._tag !== "Next") return visited
        now = visited.state
        node = visited.next === undefined ? undefined : yield* index.node(visited.next, node)
      }
      return { _tag: "End", state: now } as const
    })

  return { walk: walkNodes }
}

/** The nodes that run in one execution and leave by the exit their result names. */
const single = <R>(node: WorkflowNode, execution: Execution<WorkflowNode, R>): Step<R> => {
  switch (node.type) {
    case "trigger":
      return trigger({ ...execution, node })
    case "transform":
      return transform({ ...execution, node })
    case "condition":
      return condition({ ...execution, node })
    case "switch":
      return switchOn({ ...execution, node })
    case "output":
      return output({ ...execution, node })
    case "llm":
      return llm({ ...execution, node })
    case "ai-agent":
      return agent({ ...execution, node })
    case "http":
      return http({ ...execution, node })
    default:
      // A join met outside a parallel passes control on.
      return passOn(execution)
  }
}
