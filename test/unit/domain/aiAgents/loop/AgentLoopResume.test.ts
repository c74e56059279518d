/**
 * The resume property: a turn driven step by step through a random script of
 * model answers and tool outcomes is recorded; then at every prefix of that
 * recording (a node that died after storing it), `nextAction` must give the
 * action the full run took there (less the calls already run), and a run
 * resumed from the prefix must end with the same steps, never running a call
 * that already has its tool step.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import {
  type LoopAction,
  type LoopLimits,
  messagesFor,
  nextAction
} from "../../../../../src/domain/aiAgents/loop/AgentLoop.js"
import type { LoopStep, ModelFinish, ToolStepStatus } from "../../../../../src/domain/aiAgents/loop/LoopStep.js"
import type { JsonValue } from "../../../../../src/domain/Json.js"

interface ScriptedCall {
  readonly name: string
  readonly arguments: JsonValue
  readonly status: ToolStepStatus
}

interface ScriptedAnswer {
  readonly text: string
  readonly calls: ReadonlyArray<ScriptedCall>
  readonly finish: ModelFinish
  readonly inputTokens: number
  readonly outputTokens: number
}

interface Script {
  readonly answers: ReadonlyArray<ScriptedAnswer>
  readonly limits: LoopLimits
  readonly builtIns: ReadonlyArray<string>
  /** Providers that number calls per step (`call_0` in every step) rather than per turn. */
  readonly idsPerStep: boolean
  /** Orders the completion of parallel calls. */
  readonly seed: number
}

const call: fc.Arbitrary<ScriptedCall> = fc.record({
  name: fc.constantFrom("lookup", "book", "lookup", "book", "remember", "handoff"),
  arguments: fc.oneof(fc.constant({}), fc.record({ reason: fc.string({ maxLength: 8 }) }), fc.constant(null)),
  status: fc.constantFrom("succeeded", "succeeded", "failed", "blocked", "timed-out")
})

const answer: fc.Arbitrary<ScriptedAnswer> = fc.record({
  text: fc.string({ maxLength: 6 }),
  calls: fc.oneof(
    { arbitrary: fc.constant([]), weight: 1 },
    { arbitrary: fc.array(call, { minLength: 1, maxLength: 4 }), weight: 4 }
  ),
  finish: fc.constantFrom("stop", "length", "tool-calls", "content-filter", "other"),
  inputTokens: fc.integer({ min: 0, max: 400 }),
  outputTokens: fc.integer({ min: 0, max: 200 })
})

const script: fc.Arbitrary<Script> = fc.record({
  answers: fc.array(answer, { minLength: 1, maxLength: 7 }),
  limits: fc.record({
    maxModelSteps: fc.integer({ min: 1, max: 6 }),
    tokenBudget: fc.record({
      remaining: fc.option(fc.integer({ min: -10, max: 2500 })),
      onExceeded: fc.constantFrom("end" as const, "handoff" as const)
    })
  }),
  builtIns: fc.subarray(["handoff", "remember"]),
  idsPerStep: fc.boolean(),
  seed: fc.integer({ min: 0, max: 1000 })
})

interface Run {
  /** The steps in the order they were recorded (parallel tools as they finished). */
  readonly steps: ReadonlyArray<LoopStep>
  /** Each action taken, with how many steps were recorded when it was decided. */
  readonly trace: ReadonlyArray<{ readonly at: number; readonly action: LoopAction }>
  /** The step indexes of the tool calls this run executed. */
  readonly executed: ReadonlyArray<number>
}

const decide = (s: Script, steps: ReadonlyArray<LoopStep>): LoopAction =>
  Either.getOrThrow(nextAction({ steps, limits: s.limits, builtIns: s.builtIns }))

/** Drives the turn from `from` to its finish, as a node does: decide, act, record, repeat. */
const run = (s: Script, from: ReadonlyArray<LoopStep>): Run => {
  const steps = [...from]
  const trace: Array<{ at: number; action: LoopAction }> = []
  const executed: Array<number> = []
  for (let guard = 0; guard < 200; guard++) {
    const action = decide(s, steps)
    trace.push({ at: steps.length, action })
    switch (action._tag) {
      case "Finish":
        return { steps, trace, executed }
      case "CallModel": {
        expect(action.index).toBe(steps.length)
        const round = steps.filter((step) => step._tag === "ModelStep").length
        const scripted = s.answers[round] ??
          { text: "fine", calls: [], finish: "stop", inputTokens: 1, outputTokens: 1 }
        steps.push({
          _tag: "ModelStep",
          index: action.index,
          text: scripted.text,
          toolCalls: scripted.calls.map((c, place) => ({
            id: s.idsPerStep ? `call_${place}` : `call_${round}_${place}`,
            name: c.name,
            arguments: c.arguments
          })),
          finish: scripted.finish,
          usage: { inputTokens: scripted.inputTokens, outputTokens: scripted.outputTokens },
          latencyMs: 5,
          model: "scripted"
        })
        break
      }
      case "RunTools": {
        expect(action.calls.length).toBeGreaterThan(0)
        const models = steps.filter((step) => step._tag === "ModelStep")
        const model = models.reduce((latest, step) => step.index > latest.index ? step : latest)
        const round = models.length - 1
        const finishing = [...action.calls].sort((x, y) =>
          ((x.index * 7919 + s.seed) % 13) - ((y.index * 7919 + s.seed) % 13)
        )
        for (const pending of finishing) {
          expect(steps.some((step) => step.index === pending.index), "a completed call is never run again").toBe(false)
          const place = pending.index - model.index - 1
          const status = s.answers[round].calls[place].status
          executed.push(pending.index)
          steps.push({
            _tag: "ToolStep",
            index: pending.index,
            callId: pending.callId,
            name: pending.name,
            status,
            result: status === "succeeded" ? { ran: pending.index } : null,
            error: status === "failed" ? "it broke" : null,
            durationMs: 1
          })
        }
        break
      }
    }
  }
  return expect.fail("the turn did not finish")
}

/** What a node must decide after `prefix`: the action taken at the last decision, less the calls run since. */
const expectedAfter = (full: Run, prefix: ReadonlyArray<LoopStep>): LoopAction => {
  const { action } = full.trace.filter(({ at }) => at <= prefix.length).at(-1)!
  if (action._tag !== "RunTools") return action
  return { _tag: "RunTools", calls: action.calls.filter((c) => !prefix.some((step) => step.index === c.index)) }
}

const byIndex = (steps: ReadonlyArray<LoopStep>) => [...steps].sort((a, b) => a.index - b.index)

/** A fixed reordering of the steps, as a store without ORDER BY might return them. */
const jumbled = (steps: ReadonlyArray<LoopStep>, seed: number) =>
  [...steps].sort((a, b) => ((a.index * 31 + seed) % 7) - ((b.index * 31 + seed) % 7) || b.index - a.index)

describe("resuming a turn from its stored steps", () => {
  it("at every prefix, decides what the full run decided there and runs every call once", () => {
    fc.assert(
      fc.property(script, (s) => {
        const full = run(s, [])
        const last = full.trace.at(-1)!.action
        expect(last._tag).toBe("Finish")
        expect(new Set(full.executed).size).toBe(full.executed.length)
        expect(full.steps.filter((step) => step._tag === "ModelStep").length).toBeLessThanOrEqual(
          s.limits.maxModelSteps
        )
        for (let length = 0; length <= full.steps.length; length++) {
          const prefix = full.steps.slice(0, length)
          const action = decide(s, prefix)
          expect(action).toEqual(expectedAfter(full, prefix))
          expect(decide(s, jumbled(prefix, s.seed))).toEqual(action)
          const resumed = run(s, prefix)
          expect(byIndex(resumed.steps)).toEqual(byIndex(full.steps))
          expect(resumed.trace.at(-1)!.action).toEqual(last)
          expect(resumed.executed.filter((index) => prefix.some((step) => step.index === index))).toEqual([])
        }
      }),
      { numRuns: 300 }
    )
  })

  it("before every model call, the transcript answers each call once, in call order", () => {
    fc.assert(
      fc.property(script, (s) => {
        const full = run(s, [])
        for (const { action, at } of full.trace) {
          if (action._tag !== "CallModel") continue
          const steps = full.steps.slice(0, at)
          const messages = Either.getOrThrow(messagesFor(jumbled(steps, s.seed)))
          const expected = byIndex(steps).flatMap((step) =>
            step._tag === "ModelStep" ? ["assistant", ...step.toolCalls.map((c) => `tool:${c.id}`)] : []
          )
          expect(messages.map((m) => m.role === "tool" ? `tool:${m.callId}` : m.role)).toEqual(expected)
        }
      }),
      { numRuns: 300 }
    )
  })
})
