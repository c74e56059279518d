/**
 * The working state of one step of the engine (one `open` or `advance`):
 * what the bot has said, where it has been, the variables as they now are,
 * the user message the step reads, and what each visited node decided to do
 * next. It lives for one step only; the step's result is built from it.
 */
import type { EdgeRoute } from "../../assistants/FlowEdge.js"
import type { FlowNodeId } from "../../assistants/FlowIds.js"
import { MAX_VARIABLES, type Variables } from "../../assistants/Variable.js"
import type { JsonValue } from "../../Json.js"
import type { BotMessage } from "../BotMessage.js"
import type { NluPrediction } from "../Turn.js"
import { type ExpressionBudget, type ExpressionScope, type InputDocument, makeBudget } from "./Expressions.js"
import type { FlowProgram } from "./FlowProgram.js"

/** What a node does once visited. */
export type Transition =
  /** Follow the edge of the first of these outcomes that has one (none: a dead end). */
  | { readonly _tag: "Follow"; readonly routes: ReadonlyArray<EdgeRoute> }
  /** Continue at a node (a jump); `undefined` when the jump names nothing. */
  | { readonly _tag: "GoTo"; readonly nodeId: FlowNodeId | undefined }
  /** Wait here for the user's next message. */
  | { readonly _tag: "Wait"; readonly attempts: number }
  /** The conversation is over. */
  | { readonly _tag: "Finish"; readonly status: "ended" | "handed-off" }

/** Follow the first of `routes` that has an edge. */
export const follow = (...routes: ReadonlyArray<EdgeRoute>): Transition => ({ _tag: "Follow", routes })

/** The working state of one step. */
export interface Run {
  readonly program: FlowProgram
  /** The step's instant, for `$now()`. */
  readonly nowMillis: number
  /** What is left of the step's expression evaluation steps. */
  readonly budget: ExpressionBudget
  readonly messages: Array<BotMessage>
  readonly path: Array<FlowNodeId>
  readonly variables: Record<string, JsonValue>
  input: InputDocument
  nlu: typeof NluPrediction.Type | null
}

/** The input document of a step with no user message, or before a router has read it. */
export const noInput: InputDocument = { text: null, payload: null, intent: null, confidence: null, slots: null }

/** A fresh run over a copy of `variables`. */
export const makeRun = (program: FlowProgram, variables: Variables, input: InputDocument, nowMillis: number): Run => ({
  program,
  nowMillis,
  budget: makeBudget(),
  messages: [],
  path: [],
  variables: { ...variables },
  input,
  nlu: null
})

/**
 * Sets a variable. A new variable beyond `MAX_VARIABLES` is not created (the
 * write is dropped); an existing one is always overwritten.
 */
export const setVariable = (run: Run, name: string, value: JsonValue): void => {
  if (!Object.hasOwn(run.variables, name) && Object.keys(run.variables).length >= MAX_VARIABLES) return
  // Defined, not assigned: `__proto__` is a valid variable name.
  Object.defineProperty(run.variables, name, { value, writable: true, enumerable: true, configurable: true })
}

/** What expressions read now. */
export const scopeOf = (run: Run): ExpressionScope => ({ vars: run.variables, input: run.input })
