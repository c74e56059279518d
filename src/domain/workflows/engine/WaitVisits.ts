/**
 * Visits of the nodes that wait. A duration: the caller's `sleep`, then one
 * execution. A wait for an approval or an event, and an input node: one
 * execution that renders the prompt (an input node emits it) and is traced
 * `waiting`, the caller's `awaitPayload` under the same key, then one
 * `:resume` execution that reads the payload and chooses the exit. An input
 * whose answer does not read as expected asks again (`:ask2`, `:ask3`...),
 * up to `MAX_INPUT_ASKS` times.
 */
import { Effect } from "effect"
import type { JsonValue } from "../../Json.js"
import type { PendingWait } from "../PendingWait.js"
import { type NodeOf, openWait, passOn, resumeInput, resumeWait } from "./NodeExecutions.js"
import { nextVisit, phase } from "./NodeKey.js"
import { applyResult, type RunState } from "./RunState.js"
import { next, type Visited, type Walk, type Walker } from "./Walk.js"
import { failedAt, type WorkflowRunFailed } from "./WorkflowRunFailed.js"

/** How many times an input node asks for an answer that reads as expected before the run fails. */
export const MAX_INPUT_ASKS = 5

const pendingWait = (node: NodeOf<"wait"> | NodeOf<"input">, prompt: JsonValue | undefined): PendingWait => {
  const text = typeof prompt === "string" ? { prompt } : {}
  if (node.type === "input") return { kind: "input", nodeId: node.id, expect: node.data.expect, ...text }
  return node.data.for === "event"
    ? { kind: "event", nodeId: node.id, event: node.data.event, ...text }
    : { kind: "approval", nodeId: node.id, ...text }
}

export const visitWait = <E, R>(
  walker: Walker<E, R>,
  node: NodeOf<"wait">,
  state: RunState,
  walk: Walk
): Effect.Effect<Visited, WorkflowRunFailed | E, R> =>
  Effect.gen(function*() {
    const { execute, executionOf, hooks, index } = walker
    const key = nextVisit(walk.scope, node.id)
    const data = node.data
    if (data.for === "duration") {
      yield* hooks.sleep(key, data.seconds)
      const passed = yield* execute(key, node, passOn(executionOf(node, key, state, walk)))
      return next(applyResult(state, node, passed), yield* index.next(node, passed.handle))
    }
    const opened = yield* execute(key, node, openWait(executionOf(node, key, state, walk)))
    const waited = yield* hooks.awaitPayload(key, {
      node,
      wait: pendingWait(node, opened.output),
      timeoutSeconds: data.timeoutSeconds
    })
    const resumeKey = phase(key, "resume")
    const result = yield* execute(resumeKey, node, resumeWait(executionOf(node, resumeKey, state, walk), waited))
    return next(applyResult(state, node, result), yield* index.next(node, result.handle))
  })

export const visitInput = <E, R>(
  walker: Walker<E, R>,
  node: NodeOf<"input">,
  state: RunState,
  walk: Walk
): Effect.Effect<Visited, WorkflowRunFailed | E, R> =>
  Effect.gen(function*() {
    const { execute, executionOf, hooks, index } = walker
    const key = nextVisit(walk.scope, node.id)
    for (let ask = 1; ask <= MAX_INPUT_ASKS; ask++) {
      const askKey = ask === 1 ? key : phase(key, `ask${ask}`)
      const opened = yield* execute(askKey, node, openWait(executionOf(node, askKey, state, walk)))
      const waited = yield* hooks.awaitPayload(askKey, {
        node,
        wait: pendingWait(node, opened.output),
        timeoutSeconds: node.data.timeoutSeconds
      })
      const resumeKey = phase(askKey, "resume")
      const result = yield* execute(resumeKey, node, resumeInput(executionOf(node, resumeKey, state, walk), waited))
      if (result.invalid === undefined) {
        return next(applyResult(state, node, result), yield* index.next(node, result.handle))
      }
    }
    return yield* Effect.fail(
      failedAt(node.id, "invalid-input", `no answer read as ${node.data.expect} after ${MAX_INPUT_ASKS} asks`)
    )
  })
