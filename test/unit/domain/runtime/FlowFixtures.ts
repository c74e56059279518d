/**
 * Small constructors for engine tests: nodes, edges and intents decoded
 * through the real schemas (so brands, defaults and limits are the
 * contract's), a compiler that insists on success, and turn helpers.
 */
import { Either, Schema } from "effect"
import { Subflow } from "../../../../src/domain/assistants/Flow.js"
import { type EdgeRoute, FlowEdge } from "../../../../src/domain/assistants/FlowEdge.js"
import { FlowNode } from "../../../../src/domain/assistants/FlowNode.js"
import { Slot } from "../../../../src/domain/assistants/Intent.js"
import type { Classifier } from "../../../../src/domain/runtime/engine/Classifier.js"
import { advance } from "../../../../src/domain/runtime/engine/FlowEngine.js"
import type { Step } from "../../../../src/domain/runtime/engine/FlowEngine.js"
import { compile, type EngineIntent, type FlowProgram } from "../../../../src/domain/runtime/engine/FlowProgram.js"

const decodeNode = Schema.decodeUnknownSync(FlowNode)
const decodeEdge = Schema.decodeUnknownSync(FlowEdge)
const decodeSlot = Schema.decodeUnknownSync(Slot)
const decodeSubflow = Schema.decodeUnknownSync(Subflow)

/** Any node, decoded. */
export const node = (id: string, type: FlowNode["type"], data: unknown, extra: object = {}): FlowNode =>
  decodeNode({ id, type, position: { x: 0, y: 0 }, data, ...extra })

export const start = (id = "start") => node(id, "start", {})
export const message = (id: string, text: string, data: object = {}) => node(id, "message", { text, ...data })
export const question = (id: string, variable: string, validation: object, data: object = {}) =>
  node(id, "question", { prompt: `Question ${id}?`, variable, validation, ...data })
export const router = (id: string, intents: ReadonlyArray<string>, data: object = {}) =>
  node(id, "intent-router", { intents, ...data })
export const condition = (id: string, cases: ReadonlyArray<readonly [key: string, expression: string]>) =>
  node(id, "condition", { cases: cases.map(([key, expression]) => ({ key, expression })) })
export const setValue = (id: string, variable: string, value: unknown) => node(id, "set-variable", { variable, value })
export const setExpression = (id: string, variable: string, expression: string) =>
  node(id, "set-variable", { variable, expression })
export const http = (id: string) =>
  node(id, "http", { toolId: "00000000-0000-4000-8000-000000000001", resultVariable: "result" })
export const ai = (id: string) => node(id, "ai", { prompt: "Summarise {{text}}", resultVariable: "summary" })
export const handoff = (id: string, data: object = { target: { kind: "default" } }) => node(id, "handoff", data)
export const jumpTo = (id: string, nodeId: string) => node(id, "jump", { target: { kind: "node", nodeId } })
export const jumpToSubflow = (id: string, subflowId: string) =>
  node(id, "jump", { target: { kind: "subflow", subflowId } })
export const end = (id = "end", data: object = {}) => node(id, "end", data)

let edgeCount = 0

/** An edge taking `route` (default `next`) from `source` to `target`. */
export const edge = (source: string, target: string, route: EdgeRoute = { kind: "next" }): FlowEdge =>
  decodeEdge({ id: `e${++edgeCount}`, source, target, ...route })

/** `next` edges along the nodes. */
export const chain = (...ids: ReadonlyArray<string>): ReadonlyArray<FlowEdge> =>
  ids.slice(1).map((target, index) => edge(ids[index]!, target))

export const subflow = (id: string, entryNodeId: string) => decodeSubflow({ id, name: id, entryNodeId })

/** An intent for the engine, its slots decoded. */
export const intent = (name: string, utterances: ReadonlyArray<string>, slots: ReadonlyArray<unknown> = []) =>
  ({ name, utterances, slots: slots.map((slot) => decodeSlot(slot)) }) satisfies EngineIntent

export interface FlowSpec {
  readonly nodes: ReadonlyArray<FlowNode>
  readonly edges: ReadonlyArray<FlowEdge>
  readonly subflows?: ReadonlyArray<Subflow>
  readonly intents?: ReadonlyArray<EngineIntent>
  /** Null: the classifier's automatic threshold. */
  readonly nluThreshold?: number | null
  readonly locale?: string
  readonly classifier?: Classifier
}

/** Compiles a flow that must compile. */
export const program = (spec: FlowSpec): FlowProgram =>
  Either.getOrThrowWith(
    compile({
      nodes: spec.nodes,
      edges: spec.edges,
      subflows: spec.subflows ?? [],
      intents: spec.intents ?? [],
      nluThreshold: spec.nluThreshold === undefined ? 0.5 : spec.nluThreshold,
      locale: spec.locale ?? "en",
      ...(spec.classifier === undefined ? {} : { classifier: spec.classifier })
    }),
    (findings) => new Error(`the flow does not compile: ${JSON.stringify(findings)}`)
  )

/** The user types `text` at the step's waiting node. */
export const say = (flow: FlowProgram, step: Step, text: string) => advance(flow, step.state, { text })

/** The user presses a button with `payload`. */
export const press = (flow: FlowProgram, step: Step, payload: string) => advance(flow, step.state, { payload })

/** The text of each message (`undefined` for an image), for short assertions. */
export const texts = (step: Step): ReadonlyArray<string | undefined> =>
  step.messages.map((message) => ("text" in message ? message.text : undefined))

/** The last message of a step. */
export const lastMessage = (step: Step) => step.messages[step.messages.length - 1]
