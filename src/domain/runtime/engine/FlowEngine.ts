/**
 * The interpreter of scripted Assistants: pure, deterministic (the same
 * program, state, input and `Clock` give the same step) and total: a step
 * never fails. What each node does is in `NodeArrival` and `WaitingNodes`;
 * what can go wrong at run time is defined here:
 *
 * - A node needs an edge it does not have (a message without `next`, a
 *   condition case, intent or fallback without its edge, an http or ai node
 *   without `error`), an edge or jump leads to no node, or a jump names a
 *   missing sub-flow: the session ends, with an `end` message whose outcome
 *   is `dead-end`, whose `nodeId` is the node that could not go on and whose
 *   text says so to the user (`ENGINE_END_TEXT`).
 * - More than `MAX_NODES_PER_STEP` nodes in one step (a loop that never waits):
 *   the session ends with outcome `loop-limit` at the node that would have
 *   been one too many (it is not visited and not in the path).
 * - An expression fails (syntax, an error, a bound reached; see
 *   `Expressions`): a condition case counts as false, a set-variable sets
 *   `null`.
 * - `http` and `ai` nodes fail at once (their providers do not exist yet).
 * - The waiting node is gone from the program (the draft changed between
 *   turns): the session ends with `dead-end` at that node id and an empty
 *   path. A waiting node that is no longer a question or a router is run as
 *   if just arrived at (the input is not read).
 * - `advance` on a session that is not `active` changes nothing and says
 *   nothing.
 * - A write that would create more than `MAX_VARIABLES` variables is dropped.
 */
import { Clock, Effect } from "effect"
import type { EdgeRoute } from "../../assistants/FlowEdge.js"
import type { FlowNodeId } from "../../assistants/FlowIds.js"
import type { FlowNode } from "../../assistants/FlowNode.js"
import type { Variables } from "../../assistants/Variable.js"
import type { BotMessage } from "../BotMessage.js"
import type { SessionState } from "../RuntimeSession.js"
import type { NluPrediction, TurnInput } from "../Turn.js"
import { endMessage } from "./BotMessages.js"
import { ENGINE_END_TEXT } from "./EndTexts.js"
import type { FlowProgram } from "./FlowProgram.js"
import { arrive } from "./NodeArrival.js"
import { makeRun, noInput, type Run, type Transition } from "./Run.js"
import { answerQuestion, routeIntent } from "./WaitingNodes.js"

/** The most nodes one step visits before it ends the session as a loop. */
export const MAX_NODES_PER_STEP = 200

/** What one step did: the messages, the state after it, the nodes it went through and what the classifier saw. */
export interface Step {
  readonly messages: ReadonlyArray<BotMessage>
  /** Status, the node now waiting (`null` when final), invalid attempts at it, variables. */
  readonly state: SessionState
  /** The nodes visited in this step, in order. */
  readonly path: ReadonlyArray<FlowNodeId>
  /** What the classifier saw, when an intent router read the input. */
  readonly nlu: typeof NluPrediction.Type | null
}

const result = (run: Run, status: SessionState["status"], nodeId: FlowNodeId | null, attempts: number): Step => ({
  messages: run.messages,
  state: { status, nodeId, attempts, variables: run.variables },
  path: run.path,
  nlu: run.nlu
})

const endAt = (run: Run, nodeId: FlowNodeId, outcome: "dead-end" | "loop-limit"): Step => {
  run.messages.push(endMessage(nodeId, ENGINE_END_TEXT[outcome], outcome))
  return result(run, "ended", null, 0)
}

const firstTarget = (program: FlowProgram, source: FlowNodeId, routes: ReadonlyArray<EdgeRoute>) => {
  for (const route of routes) {
    const target = program.target(source, route)
    if (target !== undefined) return target
  }
  return undefined
}

/** Runs on from `node`'s transition until a node waits or the conversation ends. */
const proceed = (run: Run, node: FlowNode, transition: Transition): Effect.Effect<Step> =>
  Effect.gen(function*() {
    let current = node
    let next = transition
    while (true) {
      if (next._tag === "Wait") return result(run, "active", current.id, next.attempts)
      if (next._tag === "Finish") return result(run, next.status, null, 0)
      const targetId = next._tag === "GoTo" ? next.nodeId : firstTarget(run.program, current.id, next.routes)
      const target = targetId === undefined ? undefined : run.program.node(targetId)
      if (target === undefined) return endAt(run, current.id, "dead-end")
      if (run.path.length >= MAX_NODES_PER_STEP) return endAt(run, target.id, "loop-limit")
      run.path.push(target.id)
      current = target
      next = yield* arrive(run, target)
    }
  })

/** Runs from the start node until a node waits for the user (a question, an intent router) or the flow ends. */
export const open = (program: FlowProgram, variables: Variables): Effect.Effect<Step> =>
  Effect.gen(function*() {
    const run = makeRun(program, variables, noInput, yield* Clock.currentTimeMillis)
    run.path.push(program.start.id)
    return yield* proceed(run, program.start, yield* arrive(run, program.start))
  })

/** Feeds one user input to the waiting node and runs on until the next wait or the end. */
export const advance = (program: FlowProgram, state: SessionState, input: TurnInput): Effect.Effect<Step> =>
  Effect.gen(function*() {
    if (state.status !== "active") return { messages: [], state, path: [], nlu: null }
    const run = makeRun(program, state.variables, {
      ...noInput,
      text: "text" in input ? input.text : null,
      payload: "payload" in input ? input.payload : null
    }, yield* Clock.currentTimeMillis)
    const waiting = state.nodeId === null ? undefined : program.node(state.nodeId)
    if (waiting === undefined) return endAt(run, state.nodeId ?? program.start.id, "dead-end")
    run.path.push(waiting.id)
    const transition = waiting.type === "question"
      ? answerQuestion(run, waiting, state.attempts, input)
      : waiting.type === "intent-router"
      ? yield* routeIntent(run, waiting, input)
      : yield* arrive(run, waiting)
    return yield* proceed(run, waiting, transition)
  })
