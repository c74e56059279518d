/**
 * A visit of a `parallel` node: each outgoing edge starts a branch (at most
 * `maxConcurrency` at once) in a scope of its own, from the parent's state;
 * a branch runs until it reaches a join, ends, or comes back to the loop
 * around it.
 *
 * - A join waiting for `all` continues once every branch has settled: the
 *   first failure in edge order fails the visit (so which branch failed
 *   first in time does not matter), else every branch's changes apply in
 *   edge order and the join runs once, in the parent's scope. Branches that
 *   meet at different joins are not runnable; when no branch reached a join,
 *   the visit ends the walk (or returns to the loop some branch came back to).
 * - A join waiting for the `first` continues as soon as a branch reaches it:
 *   the join's execution records that branch, and the run follows the branch
 *   the result names, which a replay reads from its journal even when another
 *   branch arrives first this time; the other branches are interrupted, and
 *   only the chosen branch's changes apply.
 *
 * A branch reports how it ended from a finalizer, so one interrupted (a
 * durable wait that suspends the run) reports it too, and the interruption
 * reaches the run once the others have settled.
 */
import { Effect, Exit, Queue } from "effect"
import type { WorkflowEdge } from "../WorkflowGraph.js"
import { type NodeOf, passOn } from "./NodeExecutions.js"
import { branchScope, nextVisit } from "./NodeKey.js"
import type { NodeResult } from "./NodeResult.js"
import { applyChanges, applyResult, changesSince, type RunState } from "./RunState.js"
import { next, type Visited, type Walk, type WalkEnd, type Walker } from "./Walk.js"
import { failedAt, type WorkflowRunFailed } from "./WorkflowRunFailed.js"

type BranchExit<E> = Exit.Exit<WalkEnd, WorkflowRunFailed | E>

const reachedFirstJoin = <E>(exit: BranchExit<E>): exit is Exit.Success<WalkEnd & { _tag: "AtJoin" }, never> =>
  Exit.isSuccess(exit) && exit.value._tag === "AtJoin" && exit.value.join.data.wait === "first"

/** The branch a join's result chose, by its edge. */
const chosenBranch = (result: NodeResult): unknown =>
  typeof result.output === "object" && result.output !== null && "branch" in result.output
    ? result.output.branch
    : undefined

export const visitParallel = <E, R>(
  walker: Walker<E, R>,
  node: NodeOf<"parallel">,
  state: RunState,
  outer: Walk
): Effect.Effect<Visited, WorkflowRunFailed | E, R> =>
  Effect.gen(function*() {
    const { execute, executionOf, index } = walker
    const key = nextVisit(outer.scope, node.id)
    yield* execute(key, node, passOn(executionOf(node, key, state, outer)))
    const edges = index.edgesFrom(node)
    if (edges.length === 0) return next(state, undefined)
    return yield* Effect.scoped(Effect.gen(function*() {
      const permits = yield* Effect.makeSemaphore(node.data.maxConcurrency ?? edges.length)
      const arrivals = yield* Queue.unbounded<{ readonly position: number; readonly exit: BranchExit<E> }>()
      yield* Effect.forEach(edges, (edge, position) =>
        walker.walkFrom(edge.target, node, state, { ...outer, scope: branchScope(key, edge.id), inBranch: true }).pipe(
          permits.withPermits(1),
          Effect.onExit((exit) =>
            Queue.offer(arrivals, { position, exit })
          ),
          Effect.forkScoped
        ), { discard: true })
      const exits: Array<BranchExit<E> | undefined> = edges.map(() =>
        undefined
      )
      const arrive = Effect.tap(Queue.take(arrivals), ({ exit, position }) => {
        exits[position] = exit
      })
      for (let settled = 0; settled < edges.length; settled++) {
        const { exit, position } = yield* arrive
        if (!reachedFirstJoin(exit)) continue
        const join = exit.value.join
        const joinKey = nextVisit(outer.scope, join.id)
        const arrived = edges[position]!.id
        const chosen = yield* execute(
          joinKey,
          join,
          passOn(executionOf(join, joinKey, state, outer), { branch: arrived })
        )
        const winner = edges.findIndex((edge) => edge.id === chosenBranch(chosen))
        if (winner < 0) {
          return yield* Effect.fail(failedAt(join.id, "internal", `the join's result names no branch of ${node.id}`))
        }
        while (exits[winner] === undefined) yield* arrive
        const won = yield* exits[winner]!
        const merged = applyResult(applyChanges(state, [changesSince(state, won.state)]), join, chosen)
        return next(merged, yield* index.next(join, chosen.handle))
      }
      return yield* allSettled(walker, node, edges, exits as ReadonlyArray<BranchExit<E>>, state, outer)
    }))
  })

const allSettled = <E, R>(
  walker: Walker<E, R>,
  node: NodeOf<"parallel">,
  edges: ReadonlyArray<WorkflowEdge>,
  exits: ReadonlyArray<BranchExit<E>>,
  state: RunState,
  outer: Walk
): Effect.Effect<Visited, WorkflowRunFailed | E, R> =>
  Effect.gen(function*() {
    const ends: Array<WalkEnd> = []
    for (const exit of exits) ends.push(yield* exit)
    const joins = [...new Set(ends.flatMap((end) => end._tag === "AtJoin" ? [end.join] : []))]
    if (joins.length > 1) {
      const names = joins.map((join) => join.id).join(", ")
      return yield* Effect.fail(
        failedAt(node.id, "not-runnable", `the branches of ${node.id} meet at different joins: ${names}`)
      )
    }
    const merged = applyChanges(state, ends.map((end) => changesSince(state, end.state)))
    const join = joins[0]
    if (join === undefined) {
      return ends.some((end) => end._tag === "AtLoop")
        ? { _tag: "AtLoop", state: merged } as const
        : { _tag: "End", state: merged } as const
    }
    const arrived = edges.filter((_, position) => ends[position]!._tag === "AtJoin").map((edge) => edge.id)
    const joinKey = nextVisit(outer.scope, join.id)
    const execution = walker.executionOf(join, joinKey, merged, outer)
    const joined = yield* walker.execute(joinKey, join, passOn(execution, { branches: arrived }))
    return next(applyResult(merged, join, joined), yield* walker.index.next(join, joined.handle))
  })
