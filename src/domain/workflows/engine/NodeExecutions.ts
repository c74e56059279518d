/**
 * What each kind of node does in one execution (the nodes that call out are
 * in `CallExecutions`): the effect the interpreter hands to
 * `WorkflowHooks.execute`. Each holds all of its node's work (its
 * expressions read the execution's own instant, its calls out, its emits,
 * its trace) and answers a `NodeResult`, so a journal that answers the
 * execution's key replays it without any of that happening again.
 */
import { Cause, Clock, DateTime, Effect, Either, Option, Schema } from "effect"
import type { JsonValue } from "../../Json.js"
import { makeBudget } from "../../runtime/engine/Expressions.js"
import { isTruthy, toJson } from "../../runtime/engine/ExpressionValues.js"
import type { NodeTrace } from "../NodeTrace.js"
import { ApprovalDecision } from "../WaitData.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { readAnswer } from "./InputAnswer.js"
import type { NodeKey } from "./NodeKey.js"
import type { NodeResult } from "./NodeResult.js"
import { documentOf, type LoopItem, type RunState } from "./RunState.js"
import {
  evaluate,
  evaluateJson,
  type ExpressionCache,
  type ExpressionSite,
  renderTemplate,
  type WorkflowDocument
} from "./WorkflowExpressions.js"
import type { WaitResult, WorkflowHooks } from "./WorkflowHooks.js"
import { failedAt, type WorkflowRunFailed } from "./WorkflowRunFailed.js"

/** The node of one type. */
export type NodeOf<T extends WorkflowNode["type"]> = Extract<WorkflowNode, { readonly type: T }>

/** Everything one execution reads. */
export interface Execution<N extends WorkflowNode, R> {
  readonly node: N
  readonly key: NodeKey
  readonly state: RunState
  readonly loop: LoopItem | undefined
  /** The innermost loop iteration, for the trace. */
  readonly iteration: number | undefined
  readonly cache: ExpressionCache
  readonly hooks: Pick<WorkflowHooks<unknown, R>, "callouts" | "emit" | "trace">
  /** Whether an edge leaves the node by this handle. */
  readonly hasExit: (handle: string) => boolean
}

/** One node execution. */
export type Step<R> = Effect.Effect<NodeResult, WorkflowRunFailed, R>

/**
 * Runs `body` as one traced execution: the trace starts at the execution's
 * instant (which `$now()` reads too) and ends `succeeded` (or `waiting` for
 * the first execution of a wait), `failed` with the reason when the body
 * fails or an input's answer is refused.
 */
export const traced = <R>(
  execution: Execution<WorkflowNode, R>,
  body: (site: ExpressionSite) => Step<R>,
  status: "succeeded" | "waiting" = "succeeded"
): Step<R> =>
  Effect.gen(function*() {
    const startedAt = yield* DateTime.now
    const nowMillis = DateTime.toEpochMillis(startedAt)
    const site = { cache: execution.cache, nodeId: execution.node.id, context: { nowMillis, budget: makeBudget() } }
    const exit = yield* Effect.exit(body(site))
    const durationMs = Math.max(0, Math.round((yield* Clock.currentTimeMillis) - nowMillis))
    const base: NodeTrace = {
      nodeId: execution.node.id,
      type: execution.node.type,
      status,
      startedAt,
      durationMs,
      ...(execution.iteration === undefined ? {} : { iteration: execution.iteration })
    }
    if (exit._tag === "Success") {
      const { invalid, output } = exit.value
      yield* execution.hooks.trace({
        ...base,
        ...(invalid === undefined ? {} : { status: "failed", error: invalid }),
        ...(output === undefined ? {} : { output })
      }, execution.key)
    } else {
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure)) {
        yield* execution.hooks.trace({ ...base, status: "failed", error: failure.value.message }, execution.key)
      }
    }
    return yield* exit
  })

/** What the execution's expressions read. */
export const documentFor = (execution: Execution<WorkflowNode, unknown>) => documentOf(execution.state, execution.loop)

/** A template rendered, when there is one. */
export const optionalText = (site: ExpressionSite, template: string | undefined, document: WorkflowDocument) =>
  template === undefined ? Effect.succeed(undefined) : renderTemplate(site, template, document)

/** The trigger's output is the run's (checked) input. */
export const trigger = <R>(execution: Execution<NodeOf<"trigger">, R>): Step<R> =>
  traced(execution, () => Effect.succeed({ output: execution.state.input }))

export const transform = <R>(execution: Execution<NodeOf<"transform">, R>): Step<R> =>
  traced(
    execution,
    (site) =>
      Effect.map(evaluateJson(site, execution.node.data.expression, documentFor(execution)), (value) => ({
        output: value,
        writes: { [execution.node.data.outputVariable]: value }
      }))
  )

/** Leaves by `true` or `false`, by JSONata's own truth of the value. */
export const condition = <R>(execution: Execution<NodeOf<"condition">, R>): Step<R> =>
  traced(
    execution,
    (site) =>
      Effect.map(evaluate(site, execution.node.data.expression, documentFor(execution)), (value) => {
        const holds = isTruthy(value)
        return { handle: holds ? "true" : "false", output: holds }
      })
  )

/** Leaves by the first case whose value equals the expression's (strictly: `1` is not `"1"`), else by `default`. */
export const switchOn = <R>(execution: Execution<NodeOf<"switch">, R>): Step<R> =>
  traced(
    execution,
    (site) =>
      Effect.map(evaluateJson(site, execution.node.data.expression, documentFor(execution)), (value) => ({
        handle: execution.node.data.cases.find((c) => c.value === value)?.name ?? "default",
        output: value
      }))
  )

export const output = <R>(execution: Execution<NodeOf<"output">, R>): Step<R> =>
  traced(execution, (site) =>
    Effect.gen(function*() {
      const { data, id: nodeId } = execution.node
      if (data.format === "text") {
        const text = yield* renderTemplate(site, data.template, documentFor(execution))
        yield* execution.hooks.emit({ nodeId, format: "text", text }, execution.key)
        return { output: text }
      }
      const value = yield* evaluateJson(site, data.expression, documentFor(execution))
      yield* execution.hooks.emit({ nodeId, format: "json", value }, execution.key)
      return { output: value }
    }))

/** A node that only passes control on (parallel, join, a duration once over), with what it records. */
export const passOn = <R>(execution: Execution<WorkflowNode, R>, output?: JsonValue): Step<R> =>
  traced(execution, () => Effect.succeed(output === undefined ? {} : { output }))

/**
 * A loop's first execution: the list it runs over. A list is itself, no
 * value or `null` is no items, and any other value is one item (JSONata
 * gives a one-item list as the item alone). More items than `maxIterations`
 * is a `max-iterations` failure, never a silent cut.
 */
export const loopItems = <R>(execution: Execution<NodeOf<"loop">, R>): Step<R> =>
  traced(execution, (site) =>
    Effect.gen(function*() {
      const { data, id } = execution.node
      const value = toJson(yield* evaluate(site, data.over, documentFor(execution)))
      const items = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]
      if (items.length > data.maxIterations) {
        return yield* Effect.fail(
          failedAt(id, "max-iterations", `${items.length} items, more than the loop's ${data.maxIterations} iterations`)
        )
      }
      return { output: items }
    }))

/** The value one iteration contributes, read in that iteration's scope (`item`, `index`). */
export const loopCollect = <R>(execution: Execution<NodeOf<"loop">, R>, collect: string): Step<R> =>
  traced(
    execution,
    (site) => Effect.map(evaluateJson(site, collect, documentFor(execution)), (value) => ({ output: value }))
  )

/** A loop's last execution: the collected values become its output and its variable. */
export const loopDone = <R>(execution: Execution<NodeOf<"loop">, R>, collected: ReadonlyArray<JsonValue>): Step<R> =>
  traced(execution, () => {
    const variable = execution.node.data.outputVariable
    return Effect.succeed({
      handle: "done",
      output: collected,
      ...(variable === undefined ? {} : { writes: { [variable]: collected } })
    })
  })

/** The first execution of a wait for a payload or of an input node: the prompt, emitted by an input node. */
export const openWait = <R>(execution: Execution<NodeOf<"wait"> | NodeOf<"input">, R>): Step<R> =>
  traced(execution, (site) =>
    Effect.gen(function*() {
      const { data, id: nodeId } = execution.node
      const template = "prompt" in data ? data.prompt : undefined
      const prompt = yield* optionalText(site, template, documentFor(execution))
      if (prompt === undefined) return {}
      if (execution.node.type === "input") {
        yield* execution.hooks.emit({ nodeId, format: "text", text: prompt }, execution.key)
      }
      return { output: prompt }
    }), "waiting")

const timedOut = <R>(execution: Execution<WorkflowNode, R>): Step<R> =>
  execution.hasExit("timeout")
    ? Effect.succeed({ handle: "timeout" })
    : Effect.fail(failedAt(execution.node.id, "timeout", "the wait timed out and the node has no timeout edge"))

/** A wait's payload: an approval leaves by `approved` or `rejected`, an event by its only exit; both store it. */
export const resumeWait = <R>(execution: Execution<NodeOf<"wait">, R>, result: WaitResult): Step<R> =>
  traced(execution, () => {
    if (result._tag === "TimedOut") return timedOut(execution)
    const { data, id } = execution.node
    const writes = "outputVariable" in data && data.outputVariable !== undefined
      ? { writes: { [data.outputVariable]: result.payload } }
      : {}
    if (data.for !== "approval") return Effect.succeed({ output: result.payload, ...writes })
    return Either.match(Schema.decodeUnknownEither(ApprovalDecision)(result.payload), {
      onLeft: () =>
        Effect.fail(failedAt(id, "invalid-input", "an approval needs { approved: boolean, comment?: string }")),
      onRight: (decision) =>
        Effect.succeed({ handle: decision.approved ? "approved" : "rejected", output: result.payload, ...writes })
    })
  })

/** An input node's answer, read by its `expect`; an answer that does not read is `invalid` and asked again. */
export const resumeInput = <R>(execution: Execution<NodeOf<"input">, R>, result: WaitResult): Step<R> =>
  traced(execution, () => {
    if (result._tag === "TimedOut") return timedOut(execution)
    const { data } = execution.node
    return Effect.succeed(Either.match(readAnswer(data.expect, result.payload), {
      onLeft: (invalid) => ({ invalid }),
      onRight: (value) => ({ output: value, writes: { [data.variable]: value } })
    }))
  })
