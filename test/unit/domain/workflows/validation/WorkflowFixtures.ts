/** Building draft graphs for validate-publish, decoded through the contract's schema (so defaults apply). */
import { Schema } from "effect"
import type { ProblemCode, PublishProblem } from "../../../../../src/domain/workflows/PublishProblem.js"
import { validateWorkflow } from "../../../../../src/domain/workflows/validation/ValidateWorkflow.js"
import type { WorkflowReferences } from "../../../../../src/domain/workflows/validation/WorkflowReferences.js"
import { WorkflowGraph } from "../../../../../src/domain/workflows/WorkflowGraph.js"
import type { WorkspaceToolId } from "../../../../../src/domain/workspace/Ids.js"

type Json = { readonly [key: string]: unknown }

/** A node as the editor sends it. */
export const node = (id: string, type: string, data: Json = {}): Json => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data
})

/** An edge from `source` (by `handle`, when given) to `target`. */
export const edge = (source: string, target: string, handle?: string): Json => ({
  id: `${source}_${handle ?? "to"}_${target}`.slice(0, 64),
  source,
  target,
  ...(handle === undefined ? {} : { sourceHandle: handle })
})

/** Edges along a path of unnamed exits: `chain("a", "b", "c")` is a→b→c. */
export const chain = (...ids: ReadonlyArray<string>): ReadonlyArray<Json> =>
  ids.slice(1).map((target, index) => edge(ids[index]!, target))

export const trigger = (id = "start", inputs: ReadonlyArray<Json> = []) =>
  node(id, "trigger", { kind: "manual", inputs })
export const output = (id = "end", expression = "vars") => node(id, "output", { format: "json", expression })
export const textOutput = (id: string, template: string) => node(id, "output", { format: "text", template })
export const transform = (id: string, expression: string, outputVariable = id) =>
  node(id, "transform", { expression, outputVariable })
export const condition = (id: string, expression: string) => node(id, "condition", { expression })

export const TOOL_ID = "5b0c9a70-3a55-4f51-9d2c-6f0d4cfc1a01" as WorkspaceToolId
export const UNSAFE_TOOL_ID = "5b0c9a70-3a55-4f51-9d2c-6f0d4cfc1a02" as WorkspaceToolId
export const UNKNOWN_TOOL_ID = "5b0c9a70-3a55-4f51-9d2c-6f0d4cfc1a03" as WorkspaceToolId

/** A workspace with one tool and its secret, a tool whose secret is missing, a published and a draft agent, and a model. */
export const workspace: WorkflowReferences = {
  tools: new Map([
    [TOOL_ID, { name: "Orders API", secrets: ["ORDERS_KEY"] }],
    [UNSAFE_TOOL_ID, { name: "Billing API", secrets: ["ORDERS_KEY", "BILLING_KEY"] }]
  ]),
  secrets: new Set(["ORDERS_KEY"]),
  agents: new Map([["support-bot", { published: true }], ["draft-bot", { published: false }]]),
  llmConfigured: true
}

/** The graph decoded as the service decodes a stored draft. */
export const graphOf = (nodes: ReadonlyArray<Json>, edges: ReadonlyArray<Json>): WorkflowGraph =>
  Schema.decodeUnknownSync(WorkflowGraph)({ nodes, edges })

export const validate = (
  nodes: ReadonlyArray<Json>,
  edges: ReadonlyArray<Json>,
  references: WorkflowReferences = workspace
): ReadonlyArray<PublishProblem> => validateWorkflow(graphOf(nodes, edges), references)

/** The problems of one kind. */
export const ofCode = (problems: ReadonlyArray<PublishProblem>, code: ProblemCode) =>
  problems.filter((problem) => problem.code === code)

/** The errors among the problems. */
export const errorsOf = (problems: ReadonlyArray<PublishProblem>) =>
  problems.filter((problem) => problem.severity === "error")

/**
 * A complete workflow that uses every kind of node and has no problem: an
 * order is summarised, approved when large, looked up and discussed with an
 * agent in parallel, then its lines are priced in a loop and the user is
 * asked one more question.
 */
export const completeWorkflow = () => {
  const nodes = [
    trigger("start", [
      { name: "orderId", type: "string" },
      { name: "total", type: "number" },
      { name: "lines", type: "array" }
    ]),
    node("summarise", "llm", {
      system: "You summarise orders.",
      prompt: "Summarise order {{ input.orderId }} worth {{ $string(input.total) }}",
      outputVariable: "summary",
      outputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }
    }),
    condition("big", "input.total > 100"),
    node("approve", "wait", { for: "approval", prompt: "Approve {{ input.orderId }}?", outputVariable: "decision" }),
    textOutput("refused", "Order {{ input.orderId }} was refused"),
    node("fan", "parallel", {}),
    node("fetch", "http", {
      toolId: TOOL_ID,
      inputMapping: { orderId: "input.orderId" },
      outputVariable: "order",
      onError: "route"
    }),
    textOutput("failed", "The order service failed: {{ nodes.fetch }}"),
    node("ask", "ai-agent", {
      agentSlug: "support-bot",
      message: "What should we tell the customer about {{ vars.summary.text }}?",
      inputMapping: { orderId: "input.orderId" },
      outputVariable: "advice"
    }),
    node("both", "join", { wait: "all" }),
    node("route", "switch", {
      expression: "vars.order.status",
      cases: [{ name: "shipped", value: "shipped" }, { name: "open", value: "open" }]
    }),
    node("lines", "loop", { over: "input.lines[qty > 0]", collect: "item.sku", outputVariable: "skus" }),
    transform("price", "item.qty * item.price + index * 0", "linePrice"),
    transform("noskus", "[]", "skus"),
    node("more", "input", { prompt: "Anything else about these {{ $count(vars.skus) }} items?", variable: "reply" }),
    output(
      "done",
      "{ \"summary\": vars.summary.text, \"skus\": vars.skus, \"reply\": vars.reply, \"advice\": vars.advice, \"status\": nodes.fetch.status }"
    ),
    textOutput("other", "Order status {{ vars.order.status }} is not handled")
  ]
  const edges = [
    edge("start", "summarise"),
    edge("summarise", "big"),
    edge("big", "approve", "true"),
    edge("big", "fan", "false"),
    edge("approve", "fan", "approved"),
    edge("approve", "refused", "rejected"),
    edge("fan", "fetch"),
    edge("fan", "ask"),
    edge("fetch", "both"),
    edge("fetch", "failed", "error"),
    edge("ask", "both"),
    edge("both", "route"),
    edge("route", "lines", "shipped"),
    edge("route", "noskus", "open"),
    edge("route", "other", "default"),
    edge("lines", "price", "body"),
    edge("price", "lines"),
    edge("lines", "more", "done"),
    edge("noskus", "more"),
    edge("more", "done")
  ]
  return { nodes, edges }
}
