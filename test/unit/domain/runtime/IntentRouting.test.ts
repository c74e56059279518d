import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Classifier } from "../../../../src/domain/runtime/engine/Classifier.js"
import { ENGINE_END_TEXT } from "../../../../src/domain/runtime/engine/EndTexts.js"
import { open } from "../../../../src/domain/runtime/engine/FlowEngine.js"
import type { EngineIntent } from "../../../../src/domain/runtime/engine/FlowProgram.js"
import {
  chain,
  condition,
  edge,
  end,
  type FlowSpec,
  intent,
  lastMessage,
  message,
  press,
  program,
  router,
  say,
  start,
  texts
} from "./FlowFixtures.js"

const intents: ReadonlyArray<EngineIntent> = [
  intent("order", ["I want to order a pizza", "order food", "can I get a pizza delivered"]),
  intent("refund", ["I want my money back", "refund my order", "give me a refund"]),
  intent("greet", ["hello", "hi there", "good morning"])
]

/** start → route → end_<intent> for each routed intent, or out (fallback). */
const routing = (
  names: ReadonlyArray<string>,
  { data = {}, fallback = true, ...spec }: Partial<FlowSpec> & { data?: object; fallback?: boolean } = {}
) =>
  program({
    nodes: [
      start(),
      router("route", names, data),
      ...names.map((name) => end(`end_${name}`, { outcome: name })),
      end("out", { outcome: "out-of-scope" })
    ],
    edges: [
      ...chain("start", "route"),
      ...names.map((name) => edge("route", `end_${name}`, { kind: "intent", intent: name })),
      ...(fallback ? [edge("route", "out", { kind: "fallback" })] : [])
    ],
    intents,
    ...spec
  })

/** A classifier that answers fixed confidences. */
const fixed = (scores: Record<string, number>): Classifier => ({
  classify: (_text, among) =>
    Effect.succeed(
      among.map((name) => ({ intent: name, confidence: scores[name] ?? 0 })).sort((a, b) => b.confidence - a.confidence)
    )
})

const outcomeOf = (step: Parameters<typeof lastMessage>[0]) => {
  const last = lastMessage(step)
  return last?.type === "end" ? last.outcome : undefined
}

describe("intent router", () => {
  it.effect("waits for the next message; the one that led to it is not read", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), message("hi", "How can I help?"), router("route", ["order"]), end()],
        edges: [...chain("start", "hi", "route"), edge("route", "end", { kind: "fallback" })],
        intents
      })
      const step = yield* open(flow, {})
      expect(texts(step)).toEqual(["How can I help?"])
      expect(step.state).toEqual({ status: "active", nodeId: "route", attempts: 0, variables: {} })
      expect(step.path).toEqual(["start", "hi", "route"])
      expect(step.nlu).toBeNull()
    }))

  it.effect("follows the best intent's edge and reports what the classifier saw", () =>
    Effect.gen(function*() {
      const flow = routing(["order", "refund", "greet"])
      const step = yield* say(flow, yield* open(flow, {}), "I want my money back")
      expect(outcomeOf(step)).toBe("refund")
      expect(step.path).toEqual(["route", "end_refund"])
      expect(step.nlu).toMatchObject({ intent: "refund", confidence: 1, slots: {} })
      expect(step.nlu?.ranking[0]).toEqual({ intent: "refund", confidence: 1 })
      const confidences = step.nlu!.ranking.map((score) => score.confidence)
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
      expect(confidences.every((confidence) => confidence > 0 && confidence <= 1)).toBe(true)
    }))

  it.effect("understands paraphrases, plurals and typos", () =>
    Effect.gen(function*() {
      const flow = routing(["order", "refund", "greet"])
      const opened = yield* open(flow, {})
      expect(outcomeOf(yield* say(flow, opened, "give me refunds"))).toBe("refund")
      expect(outcomeOf(yield* say(flow, opened, "pizzas delivered"))).toBe("order")
      expect(outcomeOf(yield* say(flow, opened, "I'd like to order pizza"))).toBe("order")
      expect(outcomeOf(yield* say(flow, opened, "orderd food"))).toBe("order")
      expect(outcomeOf(yield* say(flow, opened, "helo"))).toBe("greet")
    }))

  it.effect("follows the fallback for an out-of-scope message", () =>
    Effect.gen(function*() {
      const flow = routing(["order", "refund", "greet"])
      const step = yield* say(flow, yield* open(flow, {}), "what is the weather like on mars tomorrow")
      expect(outcomeOf(step)).toBe("out-of-scope")
      expect(step.nlu?.intent).toBeNull()
      expect(step.nlu!.confidence).toBeLessThan(0.5)
      expect(step.nlu?.slots).toEqual({})
    }))

  it.effect("uses the router's threshold over the Assistant's, inclusive", () =>
    Effect.gen(function*() {
      const classifier = fixed({ order: 0.6, refund: 0.3 })
      const assistantLevel = routing(["order", "refund"], { classifier, nluThreshold: 0.5 })
      expect(outcomeOf(yield* say(assistantLevel, yield* open(assistantLevel, {}), "x"))).toBe("order")
      const stricter = routing(["order", "refund"], { classifier, nluThreshold: 0.5, data: { threshold: 0.7 } })
      const refused = yield* say(stricter, yield* open(stricter, {}), "x")
      expect(outcomeOf(refused)).toBe("out-of-scope")
      expect(refused.nlu).toEqual({
        intent: null,
        confidence: 0.6,
        ranking: [{ intent: "order", confidence: 0.6 }, { intent: "refund", confidence: 0.3 }],
        slots: {}
      })
      const equal = routing(["order", "refund"], { classifier, nluThreshold: 0.9, data: { threshold: 0.6 } })
      expect(outcomeOf(yield* say(equal, yield* open(equal, {}), "x"))).toBe("order")
    }))

  it.effect("with no threshold of the Assistant's, uses the classifier's automatic one, else 0.5", () =>
    Effect.gen(function*() {
      const scores = fixed({ order: 0.3, refund: 0.1 })
      const calibrated = (threshold: number): Classifier => ({ ...scores, threshold: Effect.succeed(threshold) })
      const low = routing(["order", "refund"], { classifier: calibrated(0.25), nluThreshold: null })
      expect(outcomeOf(yield* say(low, yield* open(low, {}), "x"))).toBe("order")
      const high = routing(["order", "refund"], { classifier: calibrated(0.35), nluThreshold: null })
      expect(outcomeOf(yield* say(high, yield* open(high, {}), "x"))).toBe("out-of-scope")
      // An explicit threshold wins over the automatic one.
      const explicit = routing(["order", "refund"], { classifier: calibrated(0.25), nluThreshold: 0.5 })
      expect(outcomeOf(yield* say(explicit, yield* open(explicit, {}), "x"))).toBe("out-of-scope")
      const uncalibrated = routing(["order", "refund"], { classifier: scores, nluThreshold: null })
      expect(outcomeOf(yield* say(uncalibrated, yield* open(uncalibrated, {}), "x"))).toBe("out-of-scope")
    }))

  it.effect("never matches with confidence 0, even at threshold 0", () =>
    Effect.gen(function*() {
      const flow = routing(["order"], { classifier: fixed({}), data: { threshold: 0 } })
      const step = yield* say(flow, yield* open(flow, {}), "x")
      expect(outcomeOf(step)).toBe("out-of-scope")
      expect(step.nlu).toEqual({ intent: null, confidence: 0, ranking: [], slots: {} })
    }))

  it.effect("clamps what a classifier answers into [0, 1] and ranks at most 5", () =>
    Effect.gen(function*() {
      const names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
      const classifier = fixed({ a1: 1.7, a2: Number.NaN, a3: -0.2, a4: 0.4, a5: 0.3, a6: 0.2, a7: 0.1 })
      const flow = routing(names, { classifier })
      const step = yield* say(flow, yield* open(flow, {}), "x")
      expect(step.nlu?.ranking).toEqual([
        { intent: "a1", confidence: 1 },
        { intent: "a4", confidence: 0.4 },
        { intent: "a5", confidence: 0.3 },
        { intent: "a6", confidence: 0.2 },
        { intent: "a7", confidence: 0.1 }
      ])
      expect(outcomeOf(step)).toBe("a1")
    }))

  it.effect("takes a payload equal to one of its intents as that intent, with confidence 1", () =>
    Effect.gen(function*() {
      const flow = routing(["order", "refund", "human"])
      const step = yield* press(flow, yield* open(flow, {}), "human")
      expect(outcomeOf(step)).toBe("human")
      expect(step.nlu).toEqual({
        intent: "human",
        confidence: 1,
        ranking: [{ intent: "human", confidence: 1 }],
        slots: {}
      })
    }))

  it.effect("classifies any other payload as text", () =>
    Effect.gen(function*() {
      const flow = routing(["order", "refund"])
      const step = yield* press(flow, yield* open(flow, {}), "refund my order")
      expect(outcomeOf(step)).toBe("refund")
    }))

  it.effect("only considers its own intents", () =>
    Effect.gen(function*() {
      const flow = routing(["order", "refund"])
      const step = yield* say(flow, yield* open(flow, {}), "hello")
      expect(step.nlu?.ranking.map((score) => score.intent)).not.toContain("greet")
      expect(outcomeOf(step)).toBe("out-of-scope")
    }))

  it.effect("ends as a dead end when the matched intent or the fallback has no edge", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), router("route", ["order", "refund"]), end()],
        edges: [...chain("start", "route"), edge("route", "end", { kind: "intent", intent: "order" })],
        intents
      })
      const opened = yield* open(flow, {})
      const matched = yield* say(flow, opened, "refund my order")
      expect(matched.messages).toEqual([{
        type: "end",
        nodeId: "route",
        text: ENGINE_END_TEXT["dead-end"],
        outcome: "dead-end"
      }])
      expect(matched.nlu?.intent).toBe("refund")
      const outOfScope = yield* say(flow, opened, "zzz qqq")
      expect(outOfScope.messages).toEqual([{
        type: "end",
        nodeId: "route",
        text: ENGINE_END_TEXT["dead-end"],
        outcome: "dead-end"
      }])
    }))

  it.effect("waits again when the flow loops back to it", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), router("route", ["greet"]), message("again", "Anything else?")],
        edges: [
          ...chain("start", "route"),
          edge("route", "again", { kind: "intent", intent: "greet" }),
          edge("route", "again", { kind: "fallback" }),
          edge("again", "route")
        ],
        intents
      })
      const step = yield* say(flow, yield* open(flow, {}), "hello")
      expect(step.path).toEqual(["route", "again", "route"])
      expect(step.state).toMatchObject({ status: "active", nodeId: "route" })
    }))
})

describe("slots", () => {
  const booking = intent("book", ["book a table", "reserve a table for {count} people"], [
    { name: "count", entity: { kind: "number" } },
    { name: "email", entity: { kind: "email" } },
    {
      name: "city",
      entity: { kind: "list", values: [{ value: "Paris" }, { value: "New York", synonyms: ["NYC", "big apple"] }] }
    },
    { name: "code", entity: { kind: "regex", pattern: "\\b([A-Z]{3})-\\d+" } },
    { name: "day", entity: { kind: "datetime" } },
    { name: "site", entity: { kind: "url" } },
    { name: "phone", entity: { kind: "phone" } }
  ])
  // The classifier is fixed here: these tests are about extraction, not classification.
  const flowWith = (slotVariables: Record<string, string>, classifier = fixed({ book: 0.9 })) =>
    program({
      nodes: [start(), router("route", ["book"], { slotVariables }), end("booked"), end("out")],
      edges: [
        ...chain("start", "route"),
        edge("route", "booked", { kind: "intent", intent: "book" }),
        edge("route", "out", { kind: "fallback" })
      ],
      intents: [booking],
      locale: "en-GB",
      classifier
    })

  it.effect("extracts the matched intent's slots and stores the mapped ones", () =>
    Effect.gen(function*() {
      const flow = flowWith({ count: "party_size", city: "city", day: "date", phone: "phone" })
      const step = yield* say(
        flow,
        yield* open(flow, {}),
        "book a table for 4 people in the big apple on 05/03/2025, ref ABC-123, mail Ann@Example.com, see https://example.com/menu. call +44 20 7946 0958"
      )
      expect(step.nlu?.intent).toBe("book")
      expect(step.nlu?.slots).toEqual({
        count: 4,
        email: "ann@example.com",
        city: "New York",
        code: "ABC",
        day: "2025-03-05",
        site: "https://example.com/menu",
        phone: "+442079460958"
      })
      expect(step.state.variables).toEqual({
        party_size: 4,
        city: "New York",
        date: "2025-03-05",
        phone: "+442079460958"
      })
    }))

  it.effect("leaves a mapped variable as it was when its slot is not filled", () =>
    Effect.gen(function*() {
      const flow = flowWith({ city: "city", count: "party_size" })
      const step = yield* say(flow, yield* open(flow, { city: "Paris" }), "book a table for 2")
      expect(step.nlu?.slots).toEqual({ count: 2 })
      expect(step.state.variables).toEqual({ city: "Paris", party_size: 2 })
    }))

  it.effect("fills nothing when the message is out of scope or chosen by payload", () =>
    Effect.gen(function*() {
      const flow = flowWith({ count: "party_size" }, fixed({ book: 0.2 }))
      const opened = yield* open(flow, {})
      const outOfScope = yield* say(flow, opened, "zzz 4 qqq")
      expect(outOfScope.nlu?.slots).toEqual({})
      expect(outOfScope.state.variables).toEqual({})
      const pressed = yield* press(flow, opened, "book")
      expect(pressed.nlu?.slots).toEqual({})
    }))

  it.effect("gives later expressions the message's intent, confidence and slots as input", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          router("route", ["book"]),
          condition("check", [[
            "paris",
            "input.intent = 'book' and input.confidence >= 0.5 and input.slots.city = 'Paris' and input.text = 'book a table in paris'"
          ]]),
          end("yes", { outcome: "yes" }),
          end("no", { outcome: "no" })
        ],
        edges: [
          ...chain("start", "route"),
          edge("route", "check", { kind: "intent", intent: "book" }),
          edge("check", "yes", { kind: "case", case: "paris" }),
          edge("check", "no", { kind: "fallback" })
        ],
        intents: [booking]
      })
      expect(outcomeOf(yield* say(flow, yield* open(flow, {}), "book a table in paris"))).toBe("yes")
    }))
})
