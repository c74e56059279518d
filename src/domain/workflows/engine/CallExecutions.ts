/**
 * The executions of the nodes that call out (`llm`, `ai-agent`, `http`):
 * templates rendered and the input mapping evaluated once, then the call
 * through the caller's callouts, retried up to `maxAttempts`. The answer is
 * the node's output and its `outputVariable`.
 */
import { Effect, Either } from "effect"
import type { JsonValue } from "../../Json.js"
import { toJson } from "../../runtime/engine/ExpressionValues.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { documentFor, type Execution, type NodeOf, optionalText, type Step, traced } from "./NodeExecutions.js"
import { evaluateMapping, renderTemplate } from "./WorkflowExpressions.js"
import type { CallContext, CalloutFailure } from "./WorkflowHooks.js"
import { failedAt } from "./WorkflowRunFailed.js"

interface CallsOut {
  readonly onError: "fail" | "route"
  readonly maxAttempts: number
  readonly outputVariable: string
}

/**
 * Calls out up to `maxAttempts` times (at once, one after the other: back-off
 * is the callout's own business); then fails the run, or leaves by `error`
 * with `{ error, attempts }` as output when it routes and that edge exists.
 * A failing expression in the call itself is never retried nor routed.
 */
const callOut = <R>(
  execution: Execution<WorkflowNode, R>,
  data: CallsOut,
  call: (context: CallContext) => Effect.Effect<JsonValue, CalloutFailure, R>
): Step<R> =>
  Effect.gen(function*() {
    const { id: nodeId } = execution.node
    let failure: CalloutFailure | undefined
    for (let attempt = 1; attempt <= data.maxAttempts; attempt++) {
      const result = yield* Effect.either(call({ nodeId, key: execution.key, attempt }))
      if (Either.isRight(result)) {
        // As JSON whatever the callout slipped in (an `undefined` member), so any journal can store it.
        const value = toJson(result.right) ?? null
        return { output: value, writes: { [data.outputVariable]: value } }
      }
      failure = result.left
    }
    const message = failure?.message ?? "the call failed"
    if (data.onError === "route" && execution.hasExit("error")) {
      return { handle: "error", output: { error: message, attempts: data.maxAttempts } }
    }
    const tries = data.maxAttempts === 1 ? "" : ` (${data.maxAttempts} attempts)`
    return yield* Effect.fail(failedAt(nodeId, "call-failed", `${message}${tries}`))
  })

export const llm = <R>(execution: Execution<NodeOf<"llm">, R>): Step<R> =>
  traced(execution, (site) =>
    Effect.gen(function*() {
      const { data } = execution.node
      const document = documentFor(execution)
      const call = {
        model: data.model,
        system: yield* optionalText(site, data.system, document),
        prompt: yield* renderTemplate(site, data.prompt, document),
        temperature: data.temperature,
        maxOutputTokens: data.maxOutputTokens,
        outputSchema: data.outputSchema
      }
      return yield* callOut(execution, data, (context) => execution.hooks.callouts.llm(call, context))
    }))

export const agent = <R>(execution: Execution<NodeOf<"ai-agent">, R>): Step<R> =>
  traced(execution, (site) =>
    Effect.gen(function*() {
      const { data } = execution.node
      const document = documentFor(execution)
      const call = {
        agentSlug: data.agentSlug,
        message: yield* renderTemplate(site, data.message, document),
        context: yield* evaluateMapping(site, data.inputMapping, document)
      }
      return yield* callOut(execution, data, (context) => execution.hooks.callouts.agent(call, context))
    }))

export const http = <R>(execution: Execution<NodeOf<"http">, R>): Step<R> =>
  traced(execution, (site) =>
    Effect.gen(function*() {
      const { data } = execution.node
      const call = {
        toolId: data.toolId,
        arguments: yield* evaluateMapping(site, data.inputMapping, documentFor(execution))
      }
      return yield* callOut(execution, data, (context) => execution.hooks.callouts.http(call, context))
    }))
