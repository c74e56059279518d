import { Schema } from "effect"
import { WorkflowNodeId } from "./Ids.js"
import {
  AiAgentData,
  ConditionData,
  HttpData,
  InputData,
  JoinData,
  LlmData,
  LoopData,
  OutputData,
  ParallelData,
  SwitchData,
  TransformData
} from "./NodeData.js"
import { TriggerData } from "./TriggerData.js"
import { WaitData } from "./WaitData.js"

/** The kinds of workflow node. */
export const WorkflowNodeType = Schema.Literal(
  "trigger",
  "llm",
  "ai-agent",
  "http",
  "condition",
  "switch",
  "loop",
  "parallel",
  "join",
  "transform",
  "wait",
  "input",
  "output"
)
export type WorkflowNodeType = typeof WorkflowNodeType.Type

const Coordinate = Schema.Number.pipe(Schema.finite(), Schema.between(-1_000_000, 1_000_000))

/** Where the editor draws a node on its canvas. */
export const NodePosition = Schema.Struct({ x: Coordinate, y: Coordinate }).annotations({
  identifier: "WorkflowNodePosition"
})

const node = <const T extends WorkflowNodeType, D extends Schema.Schema.Any>(type: T, data: D) =>
  Schema.Struct({
    id: WorkflowNodeId,
    type: Schema.Literal(type),
    /** The title the editor shows; the node id when absent. */
    label: Schema.optional(Schema.Trim.pipe(Schema.maxLength(120))),
    position: NodePosition,
    data
  })

/** Starts the workflow and declares its inputs. */
export const TriggerNode = node("trigger", TriggerData).annotations({ identifier: "WorkflowTriggerNode" })
/** Calls a language model. */
export const LlmNode = node("llm", LlmData).annotations({ identifier: "WorkflowLlmNode" })
/** Calls a published AI agent. */
export const AiAgentNode = node("ai-agent", AiAgentData).annotations({ identifier: "WorkflowAiAgentNode" })
/** Calls a shared workspace HTTP tool. */
export const HttpNode = node("http", HttpData).annotations({ identifier: "WorkflowHttpNode" })
/** Branches on a boolean expression. */
export const ConditionNode = node("condition", ConditionData).annotations({ identifier: "WorkflowConditionNode" })
/** Branches on the value of an expression. */
export const SwitchNode = node("switch", SwitchData).annotations({ identifier: "WorkflowSwitchNode" })
/** Repeats a body for each item of a list. */
export const LoopNode = node("loop", LoopData).annotations({ identifier: "WorkflowLoopNode" })
/** Fans out into concurrent branches. */
export const ParallelNode = node("parallel", ParallelData).annotations({ identifier: "WorkflowParallelNode" })
/** Waits for concurrent branches. */
export const JoinNode = node("join", JoinData).annotations({ identifier: "WorkflowJoinNode" })
/** Computes a variable with JSONata. */
export const TransformNode = node("transform", TransformData).annotations({ identifier: "WorkflowTransformNode" })
/** Waits for an approval, an event or a duration. */
export const WaitNode = node("wait", WaitData).annotations({ identifier: "WorkflowWaitNode" })
/** Waits for the user's next message. */
export const InputNode = node("input", InputData).annotations({ identifier: "WorkflowInputNode" })
/** Emits a message or a value. */
export const OutputNode = node("output", OutputData).annotations({ identifier: "WorkflowOutputNode" })

/** A node of a workflow graph, discriminated by `type`, with typed `data` and a canvas position. */
export const WorkflowNode = Schema.Union(
  TriggerNode,
  LlmNode,
  AiAgentNode,
  HttpNode,
  ConditionNode,
  SwitchNode,
  LoopNode,
  ParallelNode,
  JoinNode,
  TransformNode,
  WaitNode,
  InputNode,
  OutputNode
).annotations({ identifier: "WorkflowNode" })
export type WorkflowNode = typeof WorkflowNode.Type
