import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { LoopAction, LoopLimits } from "../../../../../src/domain/aiAgents/loop/AgentLoop.js"
import { LoopStep } from "../../../../../src/domain/aiAgents/loop/LoopStep.js"

const modelStep = {
  _tag: "ModelStep",
  index: 0,
  text: "Checking.",
  toolCalls: [{ id: "call_1", name: "get weather", arguments: { city: "Oslo", days: [1, 2], exact: null } }],
  finish: "tool-calls",
  usage: { inputTokens: 120, outputTokens: 14 },
  latencyMs: 840,
  model: "gpt-4.1-mini"
} as const

const toolStep = {
  _tag: "ToolStep",
  index: 1,
  callId: "call_1",
  name: "get weather",
  status: "timed-out",
  result: null,
  error: "The tool did not answer in 10 s.",
  durationMs: 10_000
} as const

/** Through JSON text and back, as the steps go to PostgreSQL and return. */
const throughJson = <A, I>(schema: Schema.Schema<A, I>, value: A) =>
  Schema.decodeUnknownEither(schema)(JSON.parse(JSON.stringify(Schema.encodeSync(schema)(value))))

describe("recorded loop steps", () => {
  it("a model step and a tool step survive a JSON round trip unchanged (a tool name the model made up included)", () => {
    expect(throughJson(LoopStep, modelStep)).toEqual(Either.right(modelStep))
    expect(throughJson(LoopStep, toolStep)).toEqual(Either.right(toolStep))
  })

  it("refuses what the loop could not resume from", () => {
    const decode = Schema.decodeUnknownEither(LoopStep)
    expect(Either.isLeft(decode({ ...toolStep, status: "crashed" }))).toBe(true)
    expect(Either.isLeft(decode({ ...toolStep, index: -1 }))).toBe(true)
    expect(Either.isLeft(decode({ ...toolStep, index: 1.5 }))).toBe(true)
    expect(Either.isLeft(decode({ ...toolStep, callId: "" }))).toBe(true)
    expect(Either.isLeft(decode({ ...modelStep, finish: "done" }))).toBe(true)
    expect(Either.isLeft(decode({ ...modelStep, usage: { inputTokens: 1 } }))).toBe(true)
    expect(Either.isLeft(decode({ ...modelStep, toolCalls: [{ id: "c", name: "x", arguments: Number.NaN }] }))).toBe(
      true
    )
    expect(Either.isLeft(decode({ ...modelStep, _tag: "ToolStep" }))).toBe(true)
  })

  it("the limits and every action are storable too", () => {
    const limits = { maxModelSteps: 8, tokenBudget: { remaining: null, onExceeded: "handoff" } } as const
    expect(throughJson(LoopLimits, limits)).toEqual(Either.right(limits))
    expect(Either.isLeft(Schema.decodeUnknownEither(LoopLimits)({ ...limits, maxModelSteps: 0 }))).toBe(true)
    const actions = [
      { _tag: "CallModel", index: 4 },
      {
        _tag: "RunTools",
        calls: [{ index: 1, callId: "a", name: "remember", arguments: { fact: "x" }, builtIn: true }]
      },
      { _tag: "Finish", reason: "handoff", text: "", handoff: { reason: "asked for a human" } }
    ] as const
    for (const action of actions) expect(throughJson(LoopAction, action)).toEqual(Either.right(action))
  })
})
