/**
 * The typed `data` of each kind of workflow node except `trigger` and `wait`
 * (see TriggerData and WaitData). Every value a node computes is written to a
 * variable (`vars.<outputVariable>`) and is also its output in `nodes.<id>`.
 */
import { Schema } from "effect"
import { JsonSchemaDocument } from "../Json.js"
import { LlmModelRef, MaxOutputTokens, Temperature } from "../settings/LlmConnection.js"
import { Slug } from "../Slug.js"
import { VariableName } from "../VariableName.js"
import { WorkspaceToolId } from "../workspace/Ids.js"
import { HandleName, InputMapping, JsonataExpression, Template } from "./Expression.js"
import { WaitSeconds } from "./WaitData.js"

/** What a node that calls out does when the call fails: fail the run, or leave by its `error` handle. */
export const OnError = Schema.Literal("fail", "route")

const callsOut = {
  onError: Schema.optionalWith(OnError, { default: () => "fail" as const }),
  /** Attempts before the failure counts (1 means no retry). */
  maxAttempts: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 5)), { default: () => 1 })
}

/** Calls a language model with a prompt; JSON output when `outputSchema` is given, text otherwise. */
export const LlmData = Schema.Struct({
  /** Absent: the workspace default (the agent-llm settings). */
  model: Schema.optional(LlmModelRef),
  system: Schema.optional(Template),
  prompt: Template.pipe(Schema.minLength(1)),
  temperature: Schema.optional(Temperature),
  maxOutputTokens: Schema.optional(MaxOutputTokens),
  outputVariable: VariableName,
  outputSchema: Schema.optional(JsonSchemaDocument),
  ...callsOut
}).annotations({ identifier: "WorkflowLlmData" })

/** Sends one message to a published AI agent (its live version) and stores the reply. */
export const AiAgentData = Schema.Struct({
  agentSlug: Slug,
  message: Template.pipe(Schema.minLength(1)),
  /** Extra context handed to the agent, by name. */
  inputMapping: Schema.optionalWith(InputMapping, { default: () => ({}) }),
  outputVariable: VariableName,
  ...callsOut
}).annotations({ identifier: "WorkflowAiAgentData" })

/** Calls a shared workspace HTTP tool; its arguments come from the input mapping. */
export const HttpData = Schema.Struct({
  toolId: WorkspaceToolId,
  inputMapping: Schema.optionalWith(InputMapping, { default: () => ({}) }),
  outputVariable: VariableName,
  ...callsOut
}).annotations({ identifier: "WorkflowHttpData" })

/** Leaves by `true` or `false` after a boolean expression. */
export const ConditionData = Schema.Struct({ expression: JsonataExpression }).annotations({
  identifier: "WorkflowConditionData"
})

/** One case of a switch: leaves by the handle `name` when the expression equals `value`. */
export const SwitchCase = Schema.Struct({
  name: HandleName.pipe(Schema.filter((name) => name !== "default" || "`default` is the switch's fallback handle")),
  value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean)
}).annotations({ identifier: "WorkflowSwitchCase" })

/** Evaluates an expression once and leaves by the first case whose value equals it, else by `default`. */
export const SwitchData = Schema.Struct({
  expression: JsonataExpression,
  cases: Schema.Array(SwitchCase).pipe(
    Schema.minItems(1),
    Schema.maxItems(50),
    Schema.filter((cases) =>
      new Set(cases.map((c) => c.name)).size === cases.length || "the cases of a switch have distinct names"
    )
  )
}).annotations({ identifier: "WorkflowSwitchData" })

/**
 * Runs the nodes after its `body` handle once per item of a list (as `item` and
 * `index`; the body ends with an edge back to the loop), then leaves by `done`.
 */
export const LoopData = Schema.Struct({
  over: JsonataExpression,
  maxIterations: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000)), {
    default: () => 100
  }),
  /** Evaluated after each iteration; the values are collected, in order, into `outputVariable`. */
  collect: Schema.optional(JsonataExpression),
  outputVariable: Schema.optional(VariableName)
}).annotations({ identifier: "WorkflowLoopData" })

/** Starts every outgoing edge as a concurrent branch. */
export const ParallelData = Schema.Struct({
  maxConcurrency: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 20)))
}).annotations({ identifier: "WorkflowParallelData" })

/** Continues once all incoming branches (or the first of them) have arrived. */
export const JoinData = Schema.Struct({
  wait: Schema.optionalWith(Schema.Literal("all", "first"), { default: () => "all" as const })
}).annotations({ identifier: "WorkflowJoinData" })

/** Computes a value with a JSONata expression and stores it. */
export const TransformData = Schema.Struct({
  expression: JsonataExpression,
  outputVariable: VariableName
}).annotations({ identifier: "WorkflowTransformData" })

/** How an `input` node reads the user's message: as text, a number, a yes/no, or a JSON payload. */
export const InputExpectation = Schema.Literal("text", "number", "boolean", "json").annotations({
  identifier: "WorkflowInputExpectation"
})

/** Sends an optional prompt and waits for the user's next message (conversational workflows). */
export const InputData = Schema.Struct({
  prompt: Schema.optional(Template),
  variable: VariableName,
  expect: Schema.optionalWith(InputExpectation, { default: () => "text" as const }),
  timeoutSeconds: Schema.optional(WaitSeconds)
}).annotations({ identifier: "WorkflowInputData" })

/** Emits an output: a text message from a template, or a JSON value from an expression. */
export const OutputData = Schema.Union(
  Schema.Struct({ format: Schema.Literal("text"), template: Template.pipe(Schema.minLength(1)) }).annotations({}),
  Schema.Struct({ format: Schema.Literal("json"), expression: JsonataExpression }).annotations({})
).annotations({ identifier: "WorkflowOutputData" })
