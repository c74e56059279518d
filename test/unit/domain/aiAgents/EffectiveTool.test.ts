/**
 * The effective definition of a shared workspace tool under an agent's
 * overrides (limits, headers replaced by name ignoring case, query replaced
 * by name, `fixedInput` merged over the arguments) and what the model is
 * offered for each kind of tool (`fixedInput` properties hidden).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  builtinTools,
  effectiveDefinition,
  effectiveInput,
  modelToolSchema,
  undeclaredFixedInput,
  withoutFixed
} from "../../../../src/domain/aiAgents/EffectiveTool.js"
import type { HttpToolDefinition } from "../../../../src/domain/workspace/HttpToolDefinition.js"
import type { WorkspaceToolId } from "../../../../src/domain/workspace/Ids.js"
import type { SecretName } from "../../../../src/domain/workspace/Ids.js"
import { inputProblems } from "../../../../src/domain/workspace/ToolInputValidation.js"

const shared: HttpToolDefinition = {
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "string" }, tenant: { type: "string" }, verbose: { type: "boolean" } },
    required: ["orderId", "tenant"]
  },
  method: "GET",
  url: "https://api.example.com/orders/{{input.orderId}}",
  headers: { Authorization: { secret: "CRM_KEY" as SecretName, prefix: "Bearer " }, "X-Team": { value: "a" } },
  query: { tenant: { value: "{{input.tenant}}" }, lang: { value: "en" } },
  body: null,
  timeoutSeconds: 10,
  maxResponseBytes: 1000,
  allowedDomains: []
}

const workspaceConfig = (overrides: Record<string, unknown>) => ({
  kind: "workspace" as const,
  workspaceToolId: "0190d3c0-0000-7000-8000-000000000001" as WorkspaceToolId,
  overrides
})

describe("the effective definition of a workspace tool", () => {
  it("without overrides is the tool's own definition", () => {
    expect(effectiveDefinition(shared, {})).toEqual(shared)
  })

  it("replaces limits, headers by name ignoring case and query values by name, and keeps the rest", () => {
    const effective = effectiveDefinition(shared, {
      timeoutSeconds: 3,
      maxResponseBytes: 50,
      headers: { authorization: { secret: "OTHER_KEY" as SecretName }, "X-Extra": { value: "1" } },
      query: { lang: { value: "fr" } }
    })
    expect(effective.timeoutSeconds).toBe(3)
    expect(effective.maxResponseBytes).toBe(50)
    expect(effective.headers).toEqual({
      "X-Team": { value: "a" },
      authorization: { secret: "OTHER_KEY" },
      "X-Extra": { value: "1" }
    })
    expect(effective.query).toEqual({ tenant: { value: "{{input.tenant}}" }, lang: { value: "fr" } })
    expect(effective.url).toBe(shared.url)
    expect(effective.inputSchema).toBe(shared.inputSchema)
    // the tool's own definition is left as it was
    expect(Object.keys(shared.headers)).toEqual(["Authorization", "X-Team"])
  })

  it("merges fixedInput over the arguments: the agent's value wins", () => {
    expect(effectiveInput({ orderId: "A-1", tenant: "mine" }, { fixedInput: { tenant: "acme" } }))
      .toEqual({ orderId: "A-1", tenant: "acme" })
    expect(effectiveInput({ orderId: "A-1" }, {})).toEqual({ orderId: "A-1" })
    // merged input satisfies the schema though the model never sent the fixed property
    expect(inputProblems(shared.inputSchema, effectiveInput({ orderId: "A-1" }, { fixedInput: { tenant: "t" } })))
      .toEqual([])
  })

  it("names the fixedInput properties the schema does not declare", () => {
    expect(undeclaredFixedInput(shared.inputSchema, { fixedInput: { tenant: "x", nope: 1 } })).toEqual(["nope"])
    expect(undeclaredFixedInput({ type: "object" }, { fixedInput: { anything: 1 } })).toEqual([])
  })
})

describe("the schema the model sees", () => {
  it("for a workspace tool: fixedInput properties leave properties and required; the description falls back", () => {
    const seen = modelToolSchema(
      { name: "orders", description: null, config: workspaceConfig({ fixedInput: { tenant: "acme" } }) },
      { description: "Looks an order up", inputSchema: shared.inputSchema }
    )
    expect(seen).toEqual({
      name: "orders",
      description: "Looks an order up",
      inputSchema: {
        type: "object",
        properties: { orderId: { type: "string" }, verbose: { type: "boolean" } },
        required: ["orderId"]
      }
    })
    const own = modelToolSchema(
      { name: "orders", description: "Mine", config: workspaceConfig({}) },
      { description: "Looks an order up", inputSchema: shared.inputSchema }
    )
    expect(own?.description).toBe("Mine")
    expect(own?.inputSchema).toBe(shared.inputSchema)
  })

  it("for a workspace tool that is gone: nothing to offer", () => {
    expect(modelToolSchema({ name: "orders", description: "x", config: workspaceConfig({}) })).toBeUndefined()
  })

  it("for an http tool: its own schema and description", () => {
    expect(modelToolSchema({
      name: "lookup",
      description: "Looks up",
      config: { kind: "http", inputSchema: shared.inputSchema }
    })).toEqual({ name: "lookup", description: "Looks up", inputSchema: shared.inputSchema })
  })

  it("for built-ins: their own schemas, under the agent's name for the tool", () => {
    for (const builtin of ["knowledge_search", "remember", "handoff"] as const) {
      const seen = modelToolSchema({ name: `my_${builtin}`, description: null, config: { kind: "builtin", builtin } })
      expect(seen).toEqual({
        name: `my_${builtin}`,
        description: builtinTools[builtin].description,
        inputSchema: builtinTools[builtin].inputSchema
      })
    }
    expect(inputProblems(builtinTools.remember.inputSchema, { content: "likes tea", key: "drink" })).toEqual([])
    expect(inputProblems(builtinTools.remember.inputSchema, {})).not.toEqual([])
  })

  it("withoutFixed keeps extra keywords and tolerates schemas without properties", () => {
    expect(withoutFixed({ type: "object", additionalProperties: false, required: ["a", "b"] }, ["a"]))
      .toEqual({ type: "object", additionalProperties: false, required: ["b"] })
    const schema = { type: "object" as const }
    expect(withoutFixed(schema, [])).toBe(schema)
  })
})
