import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  BUDGET_HANDOFF_REASON,
  DEFAULT_HANDOFF_REASON,
  DEFAULT_TOOL_ERRORS,
  type LoopAction,
  type LoopLimits,
  messagesFor,
  nextAction
} from "../../../../../src/domain/aiAgents/loop/AgentLoop.js"
import type { LoopStep, ModelStep, ToolStep, ToolStepStatus } from "../../../../../src/domain/aiAgents/loop/LoopStep.js"
import type { JsonValue } from "../../../../../src/domain/Json.js"

const limits = (
  maxModelSteps = 4,
  remaining: number | null = null,
  onExceeded: "end" | "handoff" = "end"
): LoopLimits => ({
  maxModelSteps,
  tokenBudget: { remaining, onExceeded }
})

const builtIns = ["handoff", "remember"]

const model = (
  index: number,
  calls: ReadonlyArray<readonly [string, string, JsonValue?]>,
  options: Partial<Pick<ModelStep, "text" | "finish" | "usage">> = {}
): ModelStep => ({
  _tag: "ModelStep",
  index,
  text: options.text ?? `text ${index}`,
  toolCalls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? {} })),
  finish: options.finish ?? (calls.length > 0 ? "tool-calls" : "stop"),
  usage: options.usage ?? { inputTokens: 10, outputTokens: 5 },
  latencyMs: 120,
  model: "gpt-4.1-mini"
})

const tool = (index: number, callId: string, name: string, status: ToolStepStatus = "succeeded"): ToolStep => ({
  _tag: "ToolStep",
  index,
  callId,
  name,
  status,
  result: status === "succeeded" ? { from: callId } : null,
  error: null,
  durationMs: 30
})

const decide = (steps: ReadonlyArray<LoopStep>, limit = limits(), names = builtIns): LoopAction =>
  Either.getOrThrow(nextAction({ steps, limits: limit, builtIns: names }))

const corruption = (steps: ReadonlyArray<LoopStep>, limit = limits()): string =>
  Either.match(nextAction({ steps, limits: limit, builtIns }), {
    onLeft: (error) => {
      expect(error._tag).toBe("LoopCorrupt")
      return error.message
    },
    onRight: (action) => expect.fail(`expected LoopCorrupt, got ${JSON.stringify(action)}`)
  })

const finish = (reason: string, text: string, handoff: string | null = null) => ({
  _tag: "Finish",
  reason,
  text,
  handoff: handoff === null ? null : { reason: handoff }
})

const lookupAndBook = model(0, [["a", "lookup", { id: 7 }], ["b", "book"]])

describe("the agent loop's next action", () => {
  it("a turn begins with a model call at index 0", () => {
    expect(decide([])).toEqual({ _tag: "CallModel", index: 0 })
  })

  it("a model step without tool calls ends the turn with its text, as stop, length or content-filter", () => {
    expect(decide([model(0, [], { text: "Hello", finish: "stop" })])).toEqual(finish("stop", "Hello"))
    expect(decide([model(0, [], { text: "Hel", finish: "length" })])).toEqual(finish("length", "Hel"))
    expect(decide([model(0, [], { text: "", finish: "content-filter" })])).toEqual(finish("content-filter", ""))
    expect(decide([model(0, [], { text: "Hi", finish: "other" })])).toEqual(finish("stop", "Hi"))
    expect(decide([model(0, [], { text: "Hi", finish: "tool-calls" })])).toEqual(finish("stop", "Hi"))
  })

  it("runs a step's calls with the indexes reserved for them, then calls the model after the last tool step", () => {
    const calls = model(0, [["a", "lookup", { id: 7 }], ["r", "remember", { fact: "x" }], ["b", "book"]])
    expect(decide([calls])).toEqual({
      _tag: "RunTools",
      calls: [
        { index: 1, callId: "a", name: "lookup", arguments: { id: 7 }, builtIn: false },
        { index: 2, callId: "r", name: "remember", arguments: { fact: "x" }, builtIn: true },
        { index: 3, callId: "b", name: "book", arguments: {}, builtIn: false }
      ]
    })
    const ran = [calls, tool(1, "a", "lookup"), tool(2, "r", "remember"), tool(3, "b", "book", "failed")]
    expect(decide(ran)).toEqual({ _tag: "CallModel", index: 4 })
  })

  it("on resume lists only the calls without a tool step, whatever order the steps are stored in", () => {
    const calls = model(0, [["a", "lookup"], ["b", "book"], ["c", "lookup"]])
    const action = decide([tool(3, "c", "lookup"), calls])
    expect(action).toEqual({
      _tag: "RunTools",
      calls: [
        { index: 1, callId: "a", name: "lookup", arguments: {}, builtIn: false },
        { index: 2, callId: "b", name: "book", arguments: {}, builtIn: false }
      ]
    })
    expect(decide([tool(2, "b", "book"), calls, tool(3, "c", "lookup")])).toMatchObject({
      _tag: "RunTools",
      calls: [{ index: 1, callId: "a" }]
    })
    expect(decide([tool(2, "b", "book"), tool(1, "a", "lookup"), calls, tool(3, "c", "lookup")])).toEqual({
      _tag: "CallModel",
      index: 4
    })
  })

  it("a second round reserves its indexes after the first", () => {
    const steps = [lookupAndBook, tool(1, "a", "lookup"), tool(2, "b", "book"), model(3, [["c", "lookup"]])]
    expect(decide(steps)).toMatchObject({ _tag: "RunTools", calls: [{ index: 4, callId: "c" }] })
    expect(decide([...steps, tool(4, "c", "lookup", "timed-out")])).toEqual({ _tag: "CallModel", index: 5 })
  })
})

describe("handoff", () => {
  it("a handoff call ends the turn with its reason, and none of the step's other calls run", () => {
    const steps = [model(0, [["a", "lookup"], ["h", "handoff", { reason: " wants a refund " }], ["b", "book"]], {
      text: "Let me find someone."
    })]
    expect(decide(steps)).toEqual(finish("handoff", "Let me find someone.", "wants a refund"))
  })

  it("without a usable reason the default one is given", () => {
    for (const args of [{}, { reason: "  " }, { reason: 3 }, null, ["reason"], "reason"] as const) {
      expect(decide([model(0, [["h", "handoff", args]])])).toEqual(finish("handoff", "text 0", DEFAULT_HANDOFF_REASON))
    }
  })

  it("the first of two handoff calls gives the reason", () => {
    const steps = [model(0, [["h1", "handoff", { reason: "first" }], ["h2", "handoff", { reason: "second" }]])]
    expect(decide(steps)).toEqual(finish("handoff", "text 0", "first"))
  })

  it("is an ordinary tool when the agent has no handoff built-in", () => {
    expect(decide([model(0, [["h", "handoff"]])], limits(), ["remember"])).toEqual({
      _tag: "RunTools",
      calls: [{ index: 1, callId: "h", name: "handoff", arguments: {}, builtIn: false }]
    })
  })

  it("wins over the step limit and the spent budget", () => {
    const steps = [
      model(0, [["h", "handoff", { reason: "human" }]], { usage: { inputTokens: 900, outputTokens: 100 } })
    ]
    expect(decide(steps, limits(1, 10))).toEqual(finish("handoff", "text 0", "human"))
  })
})

describe("the step limit", () => {
  it("reached with tools still requested, ends max-steps without running them, with the last text", () => {
    const steps = [lookupAndBook, tool(1, "a", "lookup"), tool(2, "b", "book"), model(3, [["c", "lookup"]])]
    expect(decide(steps, limits(2))).toEqual(finish("max-steps", "text 3"))
    expect(decide([lookupAndBook], limits(1))).toEqual(finish("max-steps", "text 0"))
  })

  it("one step below it the loop goes on; an answer on the last allowed step is a plain stop", () => {
    const first = [lookupAndBook, tool(1, "a", "lookup"), tool(2, "b", "book")]
    expect(decide(first, limits(2))).toEqual({ _tag: "CallModel", index: 3 })
    expect(decide(first, limits(1))).toEqual(finish("max-steps", "text 0"))
    expect(decide([...first, model(3, [], { text: "done" })], limits(2))).toEqual(finish("stop", "done"))
  })

  it("a step whose tools have begun runs them all, even under a lowered limit", () => {
    expect(decide([lookupAndBook, tool(2, "b", "book")], limits(1))).toMatchObject({
      _tag: "RunTools",
      calls: [{ index: 1, callId: "a" }]
    })
  })
})

describe("the token budget", () => {
  const spent = (inputTokens: number, outputTokens: number, calls: ReadonlyArray<readonly [string, string]>) =>
    model(0, calls, { usage: { inputTokens, outputTokens } })

  it("counts input plus output: one token left lets the model be called again, none left finishes", () => {
    expect(decide([spent(60, 39, [["a", "lookup"]]), tool(1, "a", "lookup")], limits(4, 100))).toEqual({
      _tag: "CallModel",
      index: 2
    })
    expect(decide([spent(60, 40, [["a", "lookup"]]), tool(1, "a", "lookup")], limits(4, 100))).toEqual(
      finish("token-budget", "text 0")
    )
  })

  it("sums all the turn's model steps", () => {
    const steps = [spent(30, 20, [["a", "lookup"]]), tool(1, "a", "lookup"), {
      ...model(2, [["b", "lookup"]]),
      usage: { inputTokens: 40, outputTokens: 9 }
    }, tool(3, "b", "lookup")]
    expect(decide(steps, limits(4, 100))).toEqual({ _tag: "CallModel", index: 4 })
    expect(decide(steps, limits(4, 99))).toEqual(finish("token-budget", "text 2"))
  })

  it("spent when a step asks for tools, ends the turn before they start", () => {
    expect(decide([spent(90, 10, [["a", "lookup"]])], limits(4, 100))).toEqual(finish("token-budget", "text 0"))
  })

  it("hands off when the workspace says so", () => {
    expect(decide([spent(90, 10, [["a", "lookup"]])], limits(4, 100, "handoff"))).toEqual(
      finish("handoff", "text 0", BUDGET_HANDOFF_REASON)
    )
  })

  it("with nothing left before the first call, finishes with no text; null is no budget", () => {
    expect(decide([], limits(4, 0))).toEqual(finish("token-budget", ""))
    expect(decide([], limits(4, -20, "handoff"))).toEqual(finish("handoff", "", BUDGET_HANDOFF_REASON))
    const huge = [spent(10_000_000, 10_000_000, [["a", "lookup"]]), tool(1, "a", "lookup")]
    expect(decide(huge, limits(4, null))).toEqual({ _tag: "CallModel", index: 2 })
  })

  it("never stops a step's tools in the middle, and never cuts off an answer", () => {
    expect(decide([spent(90, 10, [["a", "lookup"], ["b", "book"]]), tool(1, "a", "lookup")], limits(4, 100)))
      .toMatchObject({ _tag: "RunTools", calls: [{ index: 2, callId: "b" }] })
    expect(decide([spent(900, 100, [])], limits(4, 100))).toEqual(finish("stop", "text 0"))
  })

  it("is checked before the step limit", () => {
    const steps = [spent(90, 10, [["a", "lookup"]]), tool(1, "a", "lookup")]
    expect(decide(steps, limits(1, 100, "handoff"))).toEqual(finish("handoff", "text 0", BUDGET_HANDOFF_REASON))
    expect(decide(steps, limits(1, 101))).toEqual(finish("max-steps", "text 0"))
  })
})

describe("corrupt steps are a LoopCorrupt value", () => {
  it("a tool step before any model step", () => {
    expect(corruption([tool(0, "a", "lookup")])).toContain("before any model step")
  })

  it("a tool step for a call no model step made", () => {
    expect(corruption([lookupAndBook, tool(3, "z", "lookup")])).toContain("no model step made")
    expect(corruption([model(0, []), tool(1, "a", "lookup")])).toContain("no model step made")
  })

  it("a tool step on another call's index, or under another name", () => {
    expect(corruption([lookupAndBook, tool(1, "b", "book")])).toContain("made call a (lookup) there")
    expect(corruption([lookupAndBook, tool(1, "a", "book")])).toContain("made call a (lookup) there")
  })

  it("two steps on one index", () => {
    expect(corruption([lookupAndBook, tool(1, "a", "lookup"), tool(1, "a", "lookup")])).toContain(
      "two steps have index 1"
    )
  })

  it("a model step before the previous step's tools all ran, or after a gap", () => {
    expect(corruption([lookupAndBook, tool(1, "a", "lookup"), model(3, [])])).toContain(
      "comes before tool step 2 (call b)"
    )
    expect(corruption([model(0, [["a", "lookup"]]), tool(1, "a", "lookup"), model(5, [])])).toContain(
      "model step 5 is where step 2 belongs"
    )
    expect(corruption([model(1, [])])).toContain("model step 1 is where step 0 belongs")
  })

  it("steps after an answer or a handoff", () => {
    expect(corruption([model(0, []), model(1, [])])).toContain("follows the answer of model step 0")
    expect(corruption([model(0, [["h", "handoff"]]), tool(1, "h", "handoff"), model(2, [])])).toContain(
      "follow the handoff of model step 0"
    )
  })

  it("a model step repeating a call id, and a step limit under 1", () => {
    expect(corruption([model(0, [["a", "lookup"], ["a", "book"]])])).toContain("repeats a tool call id")
    expect(corruption([], limits(0))).toContain("maxModelSteps")
  })
})

describe("messagesFor", () => {
  const three = model(0, [["a", "lookup", { id: 1 }], ["b", "book"], ["c", "lookup", { id: 2 }]], { text: "" })
  const answers = [
    tool(3, "c", "lookup"),
    { ...tool(1, "a", "lookup", "failed"), error: "HTTP 502 from the tool" },
    tool(2, "b", "book", "timed-out")
  ]

  it("puts one tool result per call in the order of the calls, whatever order the tools finished in", () => {
    expect(Either.getOrThrow(messagesFor([three, ...answers]))).toEqual([
      { role: "assistant", text: "", toolCalls: three.toolCalls },
      {
        role: "tool",
        callId: "a",
        name: "lookup",
        isFailure: true,
        content: { status: "failed", error: "HTTP 502 from the tool" }
      },
      {
        role: "tool",
        callId: "b",
        name: "book",
        isFailure: true,
        content: { status: "timed-out", error: DEFAULT_TOOL_ERRORS["timed-out"] }
      },
      { role: "tool", callId: "c", name: "lookup", isFailure: false, content: { from: "c" } }
    ])
    const reversed = Either.getOrThrow(messagesFor([...[...answers].reverse(), three]))
    expect(reversed).toEqual(Either.getOrThrow(messagesFor([three, ...answers])))
  })

  it("follows the rounds in order, and leaves out calls that have not run", () => {
    const steps = [
      model(4, [["d", "book"]], { text: "second" }),
      tool(2, "b", "book", "blocked"),
      three,
      tool(1, "a", "lookup"),
      tool(3, "c", "lookup")
    ]
    const messages = Either.getOrThrow(messagesFor(steps))
    expect(messages.map((message) => message.role === "tool" ? `tool:${message.callId}` : "assistant")).toEqual([
      "assistant",
      "tool:a",
      "tool:b",
      "tool:c",
      "assistant"
    ])
    expect(messages[2]).toMatchObject({
      isFailure: true,
      content: { status: "blocked", error: DEFAULT_TOOL_ERRORS.blocked }
    })
    expect(messages[4]).toEqual({
      role: "assistant",
      text: "second",
      toolCalls: [{ id: "d", name: "book", arguments: {} }]
    })
  })

  it("refuses corrupt steps as nextAction does", () => {
    const result = messagesFor([three, tool(4, "z", "lookup")])
    expect(Either.isLeft(result) && result.left._tag).toBe("LoopCorrupt")
  })
})
