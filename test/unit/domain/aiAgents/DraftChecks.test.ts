import { describe, expect, it } from "@effect/vitest"
import type { AiAgentSnapshot } from "../../../../src/domain/aiAgents/AiAgentSnapshot.js"
import { draftProblems, draftSecretNames, workspaceToolIds } from "../../../../src/domain/aiAgents/DraftChecks.js"

const tool = (name: string, config: unknown, enabled = true) =>
  ({ id: `00000000-0000-7000-8000-00000000000${name.length}`, name, enabled, config }) as never

const snapshot = (over: Partial<Record<keyof AiAgentSnapshot, unknown>>): AiAgentSnapshot =>
  ({
    name: "A",
    description: "",
    instructions: "Help",
    modelSettings: { model: { source: "workspace-default" }, toolChoice: "auto" },
    conversation: {},
    tasks: [],
    tools: [],
    guardrails: [],
    knowledgeIds: [],
    ...over
  }) as never

const facts = {
  existingSecrets: new Set<string>(),
  existingWorkspaceTools: new Set<string>(),
  connectedProviders: new Set(["openai"])
}

describe("DraftChecks", () => {
  it("passes a sound draft", () => {
    expect(draftProblems(snapshot({}), facts)).toEqual([])
  })

  it("lists every problem at once", () => {
    const draft = snapshot({
      instructions: "   ",
      modelSettings: { model: { source: "explicit", provider: "anthropic", model: "m" }, toolChoice: { tool: "off" } },
      tools: [
        tool("off", { kind: "builtin", builtin: "remember" }, false),
        tool("http", { kind: "http", headers: { Authorization: { secret: "API_KEY" } }, query: {} }),
        tool("shared", { kind: "workspace", workspaceToolId: "w-1", overrides: { query: { k: { secret: "OTHER" } } } })
      ]
    })
    expect(draftSecretNames(draft)).toEqual(["API_KEY", "OTHER"])
    expect(workspaceToolIds(draft)).toEqual(["w-1"])
    expect(draftProblems(draft, facts).map((problem) => problem.code)).toEqual([
      "no-instructions",
      "missing-secret",
      "missing-secret",
      "missing-workspace-tool",
      "unknown-tool-choice",
      "model-unresolvable"
    ])
    expect(
      draftProblems(draft, {
        existingSecrets: new Set(["API_KEY", "OTHER"]),
        existingWorkspaceTools: new Set(["w-1"]),
        connectedProviders: new Set(["anthropic"])
      }).map((problem) => problem.code)
    ).toEqual(["no-instructions", "unknown-tool-choice"])
  })
})
