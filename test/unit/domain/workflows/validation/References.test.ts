import { describe, expect, it } from "@effect/vitest"
import {
  chain,
  node,
  ofCode,
  output,
  TOOL_ID,
  trigger,
  UNKNOWN_TOOL_ID,
  UNSAFE_TOOL_ID,
  validate,
  workspace
} from "./WorkflowFixtures.js"

const around = (tested: ReturnType<typeof node>, references = workspace) =>
  validate([trigger(), tested, output()], chain("start", `${tested.id}`, "end"), references)

const http = (toolId: string) => node("call", "http", { toolId, outputVariable: "reply" })
const agent = (agentSlug: string) => node("ask", "ai-agent", { agentSlug, message: "Hello", outputVariable: "reply" })
const llm = (data: Record<string, unknown> = {}) =>
  node("think", "llm", { prompt: "Think", outputVariable: "idea", ...data })

describe("tools and secrets", () => {
  it("a tool that is not in the workspace is an error at data.toolId", () => {
    expect(ofCode(around(http(UNKNOWN_TOOL_ID)), "missing-tool")).toMatchObject([
      { severity: "error", nodeId: "call", field: "data.toolId" }
    ])
  })

  it("each secret the tool names that the vault lacks is an error naming the secret", () => {
    const problems = around(http(UNSAFE_TOOL_ID))
    expect(ofCode(problems, "missing-secret")).toMatchObject([
      { severity: "error", nodeId: "call", field: "data.toolId", message: expect.stringContaining("BILLING_KEY") }
    ])
    expect(ofCode(problems, "missing-secret")[0]!.message).toContain("Billing API")
  })

  it("a tool whose secrets are all in the vault is fine", () => {
    expect(around(http(TOOL_ID))).toEqual([])
  })
})

describe("agents", () => {
  it("an agent that does not exist is an error at data.agentSlug", () => {
    expect(ofCode(around(agent("nobody")), "missing-agent")).toMatchObject([
      { severity: "error", nodeId: "ask", field: "data.agentSlug" }
    ])
  })

  it("an agent without a published version is an error: it cannot be called", () => {
    expect(ofCode(around(agent("draft-bot")), "agent-not-published")).toMatchObject([
      { severity: "error", nodeId: "ask", field: "data.agentSlug" }
    ])
    expect(around(agent("support-bot"))).toEqual([])
  })
})

describe("language models", () => {
  it("an llm node without a model when the workspace has none set up is an error at data.model", () => {
    expect(ofCode(around(llm(), { ...workspace, llmConfigured: false }), "llm-not-configured")).toMatchObject([
      { severity: "error", nodeId: "think", field: "data.model" }
    ])
  })

  it("an llm node with its own model, or a workspace with a model, is fine", () => {
    expect(around(llm({ model: { provider: "openai", model: "gpt-4o-mini" } }), { ...workspace, llmConfigured: false }))
      .toEqual([])
    expect(around(llm())).toEqual([])
  })
})

describe("output schemas", () => {
  it("an output schema outside the supported subset is an error at the broken keyword", () => {
    const problems = around(llm({
      outputSchema: { type: "object", properties: { n: { type: "integr" }, s: { type: "string", pattern: "(?<=a)b" } } }
    }))
    expect(ofCode(problems, "invalid-output-schema")).toMatchObject([
      { severity: "error", nodeId: "think", field: "data.outputSchema.properties.n.type" },
      { severity: "error", nodeId: "think", field: "data.outputSchema.properties.s.pattern" }
    ])
  })

  it("an unknown keyword is refused by name", () => {
    expect(ofCode(around(llm({ outputSchema: { type: "object", oneOf: [] } })), "invalid-output-schema")).toMatchObject(
      [
        { field: "data.outputSchema.oneOf", message: expect.stringContaining("oneOf") }
      ]
    )
  })
})
