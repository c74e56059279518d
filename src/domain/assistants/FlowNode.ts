/**
 * A node of an Assistant's flow: a discriminated union on `type`, each type
 * with its own typed `data` (see `FlowNodeData`), plus what the editor needs
 * (a position, an optional label) and the sub-flow it belongs to.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { FlowNodeId, SubflowId } from "./FlowIds.js"
import {
  AiData,
  ConditionData,
  EndData,
  HandoffData,
  HttpData,
  IntentRouterData,
  JumpData,
  MessageData,
  QuestionData,
  SetVariableData,
  StartData
} from "./FlowNodeData.js"

const Coordinate = Schema.Number.pipe(Schema.between(-1_000_000, 1_000_000))

/** Where the editor draws a node (its top-left corner, in canvas units). */
export const Position = Schema.Struct({ x: Coordinate, y: Coordinate }).annotations({
  identifier: "FlowPosition"
})

/** The title the editor shows on a node: 1 to 120 characters. */
export const NodeLabel = Schema.Trim.pipe(
  Schema.nonEmptyString(),
  Schema.maxLength(120),
  // the document shows the encoded side (a string before trimming): this names the example it offers
  Schema.annotations({
    jsonSchema: { type: "string", description: "a string that will be trimmed", examples: ["Ask for the order number"] }
  })
)

const variant = <const T extends string, D extends Schema.Schema.Any>(type: T, data: D, name: string) => {
  const shared = {
    type: Schema.Literal(type),
    label: Schema.optional(NodeLabel),
    position: Position,
    /** The sub-flow the node belongs to; absent for the main flow. */
    subflow: Schema.optional(SubflowId),
    data
  }
  return {
    node: Schema.Struct({ id: FlowNodeId, ...shared }).annotations({
      identifier: name
    }),
    create: Schema.Struct({ id: Schema.optional(FlowNodeId), ...shared }).annotations({
      identifier: `${name}Create`
    }),
    patch: Schema.Struct({
      type: Schema.Literal(type),
      label: Schema.optional(NodeLabel),
      position: Schema.optional(Position),
      subflow: Schema.optional(Schema.NullOr(SubflowId)),
      data: Schema.optional(data)
    }).annotations({ identifier: `${name}Patch` })
  }
}

const start = variant("start", StartData, "StartNode")
const message = variant("message", MessageData, "MessageNode")
const question = variant("question", QuestionData, "QuestionNode")
const intentRouter = variant("intent-router", IntentRouterData, "IntentRouterNode")
const condition = variant("condition", ConditionData, "ConditionNode")
const setVariable = variant("set-variable", SetVariableData, "SetVariableNode")
const http = variant("http", HttpData, "HttpNode")
const ai = variant("ai", AiData, "AiNode")
const handoff = variant("handoff", HandoffData, "HandoffNode")
const jump = variant("jump", JumpData, "JumpNode")
const end = variant("end", EndData, "EndNode")

/** The kinds of node a flow is made of. */
export const FlowNodeType = Schema.Literal(
  "start",
  "message",
  "question",
  "intent-router",
  "condition",
  "set-variable",
  "http",
  "ai",
  "handoff",
  "jump",
  "end"
).annotations({ identifier: "FlowNodeType" })
export type FlowNodeType = typeof FlowNodeType.Type

/** A node of a flow. */
export const FlowNode = Schema.Union(
  start.node,
  message.node,
  question.node,
  intentRouter.node,
  condition.node,
  setVariable.node,
  http.node,
  ai.node,
  handoff.node,
  jump.node,
  end.node
).annotations({ identifier: "FlowNode" })
export type FlowNode = typeof FlowNode.Type

/** A new node (`POST /flow/nodes`); without an `id` the server makes one. Unknown fields are refused. */
export const FlowNodeCreate = Schema.Union(
  // the document's body example is its first member's (a union's own examples do not reach it)
  start.create.annotations({ examples: [{ type: "start", position: { x: 0, y: 0 }, data: {} }] }),
  message.create,
  question.create,
  intentRouter.create,
  condition.create,
  setVariable.create,
  http.create,
  ai.create,
  handoff.create,
  jump.create,
  end.create
).annotations({ identifier: "FlowNodeCreate", parseOptions: { onExcessProperty: "error" } })
export type FlowNodeCreate = typeof FlowNodeCreate.Type

/** Moves or renames a node without touching its data. */
export const FlowNodeLayoutPatch = Schema.Struct({
  label: Schema.optional(NodeLabel),
  position: Schema.optional(Position),
  /** The sub-flow to move the node to; `null` moves it to the main flow. */
  subflow: Schema.optional(Schema.NullOr(SubflowId))
}).annotations({
  identifier: "FlowNodeLayoutPatch",
  examples: [{ label: "Ask for the order number", position: { x: 120, y: 240 } }]
})

/**
 * A partial update of a node. Changing `data` names the node's `type` (which
 * must be its current type: a 400 otherwise) and replaces the data whole; a
 * patch without `type` may only move or rename. Unknown fields are refused.
 */
export const FlowNodePatch = Schema.Union(
  FlowNodeLayoutPatch,
  start.patch,
  message.patch,
  question.patch,
  intentRouter.patch,
  condition.patch,
  setVariable.patch,
  http.patch,
  ai.patch,
  handoff.patch,
  jump.patch,
  end.patch
).annotations({ identifier: "FlowNodePatch", parseOptions: { onExcessProperty: "error" } })
export type FlowNodePatch = typeof FlowNodePatch.Type

/** No node with this id exists in the Assistant's flow. */
export class FlowNodeNotFound extends Schema.TaggedError<FlowNodeNotFound>()(
  "FlowNodeNotFound",
  { nodeId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another node of the flow already has this id. */
export class FlowNodeIdTaken extends Schema.TaggedError<FlowNodeIdTaken>()(
  "FlowNodeIdTaken",
  { nodeId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
