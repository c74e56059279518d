import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import type { TurnToolCall } from "../../../../../src/domain/aiAgents/AgentTurn.js"
import { EvalExpectation } from "../../../../../src/domain/aiAgents/EvalExpectation.js"
import { scoreExpectation } from "../../../../../src/domain/aiAgents/evals/ExpectationScoring.js"

const expectation = Schema.decodeUnknownSync(EvalExpectation)

const call = (name: string, args: unknown): TurnToolCall => ({
  id: `call_${name}`,
  name,
  toolId: null,
  arguments: args as TurnToolCall["arguments"],
  status: "succeeded",
  result: null,
  error: null,
  durationMs: 1
})

const score = (raw: unknown, reply: string | null, toolCalls: ReadonlyArray<TurnToolCall> = []) =>
  scoreExpectation(3, expectation(raw), { reply, toolCalls })!

describe("eval expectations, scored", () => {
  it("contains and not-contains ignore case unless told, and say what they looked for", () => {
    expect(score({ kind: "contains", value: "REFUND" }, "Your refund is on its way")).toMatchObject({
      index: 3,
      kind: "contains",
      passed: true,
      score: 1,
      reason: `The reply contains "REFUND"`
    })
    expect(score({ kind: "contains", value: "REFUND", caseSensitive: true }, "Your refund")).toMatchObject({
      passed: false,
      score: 0,
      reason: `The reply does not contain "REFUND"`
    })
    expect(score({ kind: "not-contains", value: "sorry" }, "SORRY, no")).toMatchObject({ passed: false, score: 0 })
    expect(score({ kind: "not-contains", value: "sorry" }, "Done")).toMatchObject({ passed: true, score: 1 })
    expect(score({ kind: "not-contains", value: "sorry" }, null)).toMatchObject({ passed: true })
    expect(score({ kind: "contains", value: "x" }, null)).toMatchObject({ passed: false })
  })

  it("regex runs on the linear-time engine with its flags and names the first match", () => {
    expect(score({ kind: "regex", pattern: "order #(\\d+)" }, "Your order #4217 shipped")).toMatchObject({
      passed: true,
      reason: `The reply matches /order #(\\d+)/: first match "order #4217"`
    })
    expect(score({ kind: "regex", pattern: "^shipped$", flags: "im" }, "Status:\nSHIPPED")).toMatchObject({
      passed: true
    })
    expect(score({ kind: "regex", pattern: "^shipped$" }, "Status:\nSHIPPED")).toMatchObject({
      passed: false,
      reason: "The reply does not match /^shipped$/"
    })
    // A pattern the engine refuses (stored before a rule changed, say) fails with the reason, never throws.
    expect(score({ kind: "regex", pattern: "(a)\\1" }, "aa")).toMatchObject({ passed: false })
    expect(score({ kind: "regex", pattern: "(a)\\1" }, "aa").reason).toContain("backreference")
  })

  it("tool-called: by name, then arguments as a subset (objects at any depth, arrays element by element) or exact", () => {
    const calls = [call("lookup_order", { orderId: "A7", options: { fast: true, region: "eu" }, tags: [1, 2] })]
    expect(score({ kind: "tool-called", tool: "lookup_order" }, "", calls)).toMatchObject({
      passed: true,
      reason: "The agent called lookup_order once"
    })
    expect(score({ kind: "tool-called", tool: "refund" }, "", calls)).toMatchObject({
      passed: false,
      reason: "The agent did not call refund (it called lookup_order)"
    })
    expect(score({ kind: "tool-called", tool: "refund" }, "", [])).toMatchObject({
      reason: "The agent did not call refund (it called no tool)"
    })
    const subset = (value: unknown) =>
      score({ kind: "tool-called", tool: "lookup_order", arguments: { value } }, "", calls).passed
    expect(subset({ orderId: "A7" })).toBe(true)
    expect(subset({ options: { region: "eu" } })).toBe(true)
    expect(subset({ tags: [1, 2] })).toBe(true)
    expect(subset({ tags: [1] })).toBe(false)
    expect(subset({ orderId: "A8" })).toBe(false)
    expect(subset({ missing: null })).toBe(false)
    const exact = (value: unknown) =>
      score({ kind: "tool-called", tool: "lookup_order", arguments: { match: "exact", value } }, "", calls)
    expect(exact({ orderId: "A7" }).passed).toBe(false)
    expect(exact({ tags: [1, 2], options: { region: "eu", fast: true }, orderId: "A7" }).passed).toBe(true)
    expect(exact({ orderId: "A7" }).reason).toContain(`it sent {"orderId":"A7"`)
  })

  it("json-schema takes the reply alone or its one fenced block, and lists what the schema refuses", () => {
    const schema = {
      type: "object",
      properties: { status: { type: "string", enum: ["open", "closed"] }, count: { type: "integer" } },
      required: ["status"]
    }
    const json = (reply: string) => score({ kind: "json-schema", schema }, reply)
    expect(json(`{"status":"open","count":2}`)).toMatchObject({ passed: true, score: 1 })
    expect(json("Here it is:\n```json\n{\"status\": \"closed\"}\n```\nBye")).toMatchObject({ passed: true })
    expect(json("Plain words")).toMatchObject({
      passed: false,
      reason: "The reply is not JSON and has no fenced ```json block"
    })
    expect(json("```json\n{}\n```\nand\n```json\n{}\n```").reason).toContain("2 fenced JSON blocks")
    expect(json("```json\n{oops}\n```").reason).toContain("does not parse")
    const refused = json(`{"status":"lost","count":1.5}`)
    expect(refused.passed).toBe(false)
    expect(refused.reason).toContain("/status must be one of")
    expect(refused.reason).toContain("/count must be integer")
    expect(json(`{"count":1}`).reason).toContain("/status is required")
  })

  it("leaves llm-rubric to the judge, and cuts long reasons to 2000 characters", () => {
    expect(scoreExpectation(0, expectation({ kind: "llm-rubric", rubric: "Polite" }), { reply: "x", toolCalls: [] }))
      .toBeUndefined()
    const long = "y".repeat(1000)
    const result = score({ kind: "contains", value: long }, "x")
    expect(result.reason.length).toBeLessThanOrEqual(2000)
  })
})
