/**
 * A visit of a `loop` node: its list (one execution), then its body walked
 * once per item in an iteration scope with `item` and `index` (until control
 * comes back to the loop, or the body's path ends), the `collect` value of
 * each iteration (one execution each), and the collected list as its output
 * and variable (one last execution, which leaves by `done`).
 */
import { Effect } from "effect"
import type { JsonValue } from "../../Json.js"
import { loopCollect, loopDone, loopItems, type NodeOf } from "./NodeExecutions.js"
import { collectKey, iterationScope, nextVisit, phase } from "./NodeKey.js"
import { applyResult, type RunState } from "./RunState.js"
import { next, type Visited, type Walk, type Walker } from "./Walk.js"
import type { WorkflowRunFailed } from "./WorkflowRunFailed.js"

export const visitLoop = <E, R>(
  walker: Walker<E, R>,
  node: NodeOf<"loop">,
  state: RunState,
  outer: Walk
): Effect.Effect<Visited, WorkflowRunFailed | E, R> =>
  Effect.gen(function*() {
    const { execute, executionOf, index } = walker
    const key = nextVisit(outer.scope, node.id)
    const started = yield* execute(key, node, loopItems(executionOf(node, key, state, outer)))
    const items: ReadonlyArray<JsonValue> = Array.isArray(started.output) ? started.output : []
    const body = yield* index.next(node, "body")
    let now = applyResult(state, node, started)
    const collected: Array<JsonValue> = []
    for (let position = 0; position < items.length; position++) {
      const inner: Walk = {
        scope: iterationScope(key, position),
        loop: { item: items[position]!, index: position },
        loopId: node.id,
        inBranch: false
      }
      now = (yield* walker.walkFrom(body, node, now, inner)).state
      if (node.data.collect !== undefined) {
        const collecting = collectKey(key, position)
        const execution = executionOf(node, collecting, now, inner)
        const value = yield* execute(collecting, node, loopCollect(execution, node.data.collect))
        collected.push(value.output ?? null)
      }
    }
    const doneKey = phase(key, "done")
    const values = node.data.collect === undefined ? items : collected
    const done = yield* execute(doneKey, node, loopDone(executionOf(node, doneKey, now, outer), values))
    return next(applyResult(now, node, done), yield* index.next(node, done.handle))
  })
