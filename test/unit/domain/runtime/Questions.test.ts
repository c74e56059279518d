import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { JsonValue } from "../../../../src/domain/Json.js"
import { ENGINE_END_TEXT } from "../../../../src/domain/runtime/engine/EndTexts.js"
import { advance, open } from "../../../../src/domain/runtime/engine/FlowEngine.js"
import type { FlowProgram } from "../../../../src/domain/runtime/engine/FlowProgram.js"
import type { TurnInput } from "../../../../src/domain/runtime/Turn.js"
import { chain, edge, end, lastMessage, program, question, say, start, texts } from "./FlowFixtures.js"

interface Asking {
  readonly locale?: string
  readonly data?: object
  readonly fallback?: boolean
}

/** start → ask → done (answered) | gave_up (fallback). */
const asking = (validation: object, { data = {}, fallback = true, locale = "en" }: Asking = {}) =>
  program({
    nodes: [
      start(),
      question("ask", "answer", validation, data),
      end("done", { outcome: "answered" }),
      end("gave_up", { outcome: "fallback" })
    ],
    edges: [
      ...chain("start", "ask"),
      edge("ask", "done", { kind: "answered" }),
      ...(fallback ? [edge("ask", "gave_up", { kind: "fallback" })] : [])
    ],
    locale
  })

/** What the question stores for one input, or "invalid" when it asks again. */
const stored = (flow: FlowProgram, input: string | TurnInput): Effect.Effect<JsonValue | "invalid"> =>
  Effect.gen(function*() {
    const opened = yield* open(flow, {})
    const step = yield* advance(flow, opened.state, typeof input === "string" ? { text: input } : input)
    if (step.state.status === "active") return "invalid"
    const answer = step.state.variables["answer"]
    return answer === undefined ? "invalid" : answer
  })

const expectStored = (flow: FlowProgram, table: ReadonlyArray<readonly [string | TurnInput, JsonValue | "invalid"]>) =>
  Effect.gen(function*() {
    for (const [input, expected] of table) {
      expect(yield* stored(flow, input), JSON.stringify(input)).toEqual(expected)
    }
  })

describe("asking", () => {
  it.effect("says the rendered prompt and waits at the question", () =>
    Effect.gen(function*() {
      const flow = asking({ kind: "text" }, { data: { prompt: "Hi {{name}}, your email?" } })
      const step = yield* open(flow, { name: "Ann" })
      expect(step.messages).toEqual([{ type: "text", text: "Hi Ann, your email?", nodeId: "ask" }])
      expect(step.state).toEqual({ status: "active", nodeId: "ask", attempts: 0, variables: { name: "Ann" } })
      expect(step.path).toEqual(["start", "ask"])
    }))

  it.effect("offers a choice's options as quick replies: label shown, value sent", () =>
    Effect.gen(function*() {
      const flow = asking({
        kind: "choice",
        options: [{ value: "s", label: "Small" }, { value: "l", label: "Large", synonyms: ["big"] }]
      })
      const step = yield* open(flow, {})
      expect(step.messages).toEqual([
        {
          type: "buttons",
          text: "Question ask?",
          display: "quick-replies",
          buttons: [{ label: "Small", payload: "s" }, { label: "Large", payload: "l" }],
          nodeId: "ask"
        }
      ])
    }))
})

describe("validation", () => {
  it.effect("text: trimmed, non-empty, length bounds in code points; a payload counts as text", () =>
    expectStored(asking({ kind: "text", minLength: 2, maxLength: 5 }), [
      ["  hello  ", "hello"],
      ["a", "invalid"],
      ["toolong", "invalid"],
      ["😀😀", "😀😀"],
      [{ payload: "ok" }, "ok"]
    ]))

  it.effect("text without bounds takes any non-empty answer", () =>
    expectStored(asking({ kind: "text" }), [["x", "x"], ["   ", "invalid"], ["a".repeat(4000), "a".repeat(4000)]]))

  it.effect("number in en: grouping with commas, a decimal point, signs", () =>
    expectStored(asking({ kind: "number" }), [
      ["42", 42],
      ["1,234.5", 1234.5],
      ["1,000", 1000],
      ["1,000,000", 1000000],
      ["3.5", 3.5],
      ["3,5", 3.5],
      [".5", 0.5],
      ["-12", -12],
      ["+7", 7],
      ["\u22124", -4],
      ["-0", 0],
      ["1.234,5", 1234.5],
      ["12abc", "invalid"],
      ["1e3", "invalid"],
      ["1,2,3", "invalid"],
      ["12.", "invalid"],
      ["$12", "invalid"],
      ["twelve", "invalid"],
      ["1,23,4", "invalid"]
    ]))

  it.effect("number in de, fr, de-CH and en-IN: the locale's separators", () =>
    Effect.gen(function*() {
      yield* expectStored(asking({ kind: "number" }, { locale: "de" }), [
        ["1.234,5", 1234.5],
        ["1.000", 1000],
        ["1,000", 1],
        ["3,5", 3.5],
        ["3.5", 3.5],
        ["1.000.000", 1000000]
      ])
      yield* expectStored(asking({ kind: "number" }, { locale: "fr" }), [
        ["1 234,5", 1234.5],
        ["1\u202F234,5", 1234.5],
        ["12 34", "invalid"]
      ])
      yield* expectStored(asking({ kind: "number" }, { locale: "de-CH" }), [["1'234.5", 1234.5], ["1’234", 1234]])
      yield* expectStored(asking({ kind: "number" }, { locale: "en-IN" }), [["12,34,567", 1234567]])
    }))

  it.effect("number: integer and bounds", () =>
    expectStored(asking({ kind: "number", integer: true, min: 1, max: 10 }), [
      ["3", 3],
      ["3.0", 3],
      ["3.5", "invalid"],
      ["0", "invalid"],
      ["11", "invalid"],
      ["10", 10]
    ]))

  it.effect("email: stored lower-cased; anything that is not one is refused", () =>
    expectStored(asking({ kind: "email" }), [
      ["Ann.Lee+tag@Example.COM", "ann.lee+tag@example.com"],
      ["ann@sub.example.co.uk", "ann@sub.example.co.uk"],
      ["ann@", "invalid"],
      ["ann example.com", "invalid"],
      ["ann@example", "invalid"],
      ["ann@@example.com", "invalid"],
      [".ann@example.com", "invalid"],
      ["ann@example.com and more", "invalid"]
    ]))

  it.effect("date: ISO and year-first everywhere; en-US reads month first", () =>
    expectStored(asking({ kind: "date" }, { locale: "en-US" }), [
      ["2024-03-05", "2024-03-05"],
      ["2024/3/5", "2024-03-05"],
      ["03/05/2024", "2024-03-05"],
      ["3/5/24", "2024-03-05"],
      ["12/31/1985", "1985-12-31"],
      ["31/12/2024", "invalid"],
      ["2024-3/5", "invalid"]
    ]))

  it.effect("date: en-GB, de and fr read day first; two-digit years pivot at 70", () =>
    Effect.gen(function*() {
      yield* expectStored(asking({ kind: "date" }, { locale: "en-GB" }), [
        ["03/05/2024", "2024-05-03"],
        ["31/12/2024", "2024-12-31"],
        ["1/1/85", "1985-01-01"],
        ["1/1/69", "2069-01-01"]
      ])
      yield* expectStored(asking({ kind: "date" }, { locale: "de" }), [["5.3.2024", "2024-03-05"]])
      yield* expectStored(asking({ kind: "date" }, { locale: "fr" }), [["05-03-2024", "2024-03-05"]])
      yield* expectStored(asking({ kind: "date" }, { locale: "ja" }), [
        ["2024/03/05", "2024-03-05"],
        ["05/03/2024", "2024-03-05"]
      ])
    }))

  it.effect("date: impossible dates are refused, leap days are not", () =>
    expectStored(asking({ kind: "date" }, { locale: "en-GB" }), [
      ["2023-02-29", "invalid"],
      ["2024-02-29", "2024-02-29"],
      ["29/02/2023", "invalid"],
      ["31/04/2024", "invalid"],
      ["2024-13-01", "invalid"],
      ["00/01/2024", "invalid"],
      ["0000-01-01", "invalid"],
      ["2024-00-10", "invalid"],
      ["tomorrow", "invalid"]
    ]))

  const choice = {
    kind: "choice",
    options: [
      { value: "s", label: "Small" },
      { value: "m", label: "Medium size", synonyms: ["regular", "normal"] },
      { value: "l", label: "Large", synonyms: ["big"] }
    ]
  }

  it.effect("choice: by payload, or text matching a label, value or synonym whatever the case", () =>
    expectStored(asking(choice), [
      [{ payload: "m" }, "m"],
      ["LARGE", "l"],
      ["medium   SIZE", "m"],
      ["Regular", "m"],
      ["big", "l"],
      ["s", "s"],
      [{ payload: "Small" }, "s"],
      [{ payload: "xl" }, "invalid"],
      ["huge", "invalid"],
      ["large please", "invalid"]
    ]))

  it.effect("choice: follows the option's edge, else answered, else a dead end", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          question("ask", "size", choice),
          end("small", { outcome: "small" }),
          end("other", { outcome: "other" })
        ],
        edges: [
          ...chain("start", "ask"),
          edge("ask", "small", { kind: "option", option: "s" }),
          edge("ask", "other", { kind: "answered" })
        ]
      })
      const opened = yield* open(flow, {})
      expect(lastMessage(yield* say(flow, opened, "small"))).toMatchObject({ outcome: "small" })
      expect(lastMessage(yield* say(flow, opened, "big"))).toMatchObject({ outcome: "other" })
      const noAnswered = program({
        nodes: [start(), question("ask", "size", choice), end("small")],
        edges: [...chain("start", "ask"), edge("ask", "small", { kind: "option", option: "s" })]
      })
      const step = yield* say(noAnswered, yield* open(noAnswered, {}), "big")
      expect(step.messages).toEqual([{
        type: "end",
        nodeId: "ask",
        text: ENGINE_END_TEXT["dead-end"],
        outcome: "dead-end"
      }])
      expect(step.state.variables).toEqual({ size: "l" })
    }))

  it.effect("regex: the whole answer must match", () =>
    expectStored(asking({ kind: "regex", pattern: "[A-Z]{2}-\\d{5}" }), [
      ["AB-12345", "AB-12345"],
      ["xAB-12345", "invalid"],
      ["AB-123456", "invalid"],
      ["ab-12345", "invalid"]
    ]))

  it.effect("regex: alternatives are matched whole too", () =>
    expectStored(asking({ kind: "regex", pattern: "yes|no" }), [["yes", "yes"], ["no", "no"], ["yesno", "invalid"]]))

  it.effect("regex: a pattern catastrophic for backtracking matches correctly; one Parley cannot run matches nothing", () =>
    Effect.gen(function*() {
      yield* expectStored(asking({ kind: "regex", pattern: "(a+)+b" }), [["aab", "aab"], ["a".repeat(4000), "invalid"]])
      yield* expectStored(asking({ kind: "regex", pattern: "(\\w)\\1" }), [["aa", "invalid"], ["\\1", "invalid"]])
      yield* expectStored(asking({ kind: "regex", pattern: "(unclosed" }), [["(unclosed", "invalid"]])
      // No length cap below the longest message: RE2 is linear in the answer.
      yield* expectStored(asking({ kind: "regex", pattern: "a+" }), [["a".repeat(4000), "a".repeat(4000)]])
    }))

  it.effect("regex: letters of any script, emoji as one character, case folded in every script", () =>
    expectStored(asking({ kind: "regex", pattern: "(?i)\\p{L}+ .{3} é" }), [
      ["Zoë 😀😀😀 É", "Zoë 😀😀😀 É"],
      ["Ωμέγα a😀b é", "Ωμέγα a😀b é"],
      ["Zoë 😀😀 É", "invalid"]
    ]))
})

describe("invalid answers", () => {
  it.effect("reprompt, count attempts, then follow the fallback at maxAttempts", () =>
    Effect.gen(function*() {
      const flow = asking({ kind: "email" }, { data: { maxAttempts: 3, reprompt: "{{name}}, that is not an email." } })
      const opened = yield* open(flow, { name: "Ann" })
      const first = yield* say(flow, opened, "nope")
      expect(first.messages).toEqual([{ type: "text", text: "Ann, that is not an email.", nodeId: "ask" }])
      expect(first.state).toEqual({ status: "active", nodeId: "ask", attempts: 1, variables: { name: "Ann" } })
      expect(first.path).toEqual(["ask"])
      const second = yield* say(flow, first, "still no")
      expect(second.state.attempts).toBe(2)
      const third = yield* say(flow, second, "never")
      expect(third.path).toEqual(["ask", "gave_up"])
      expect(third.state).toEqual({ status: "ended", nodeId: null, attempts: 0, variables: { name: "Ann" } })
      expect(lastMessage(third)).toMatchObject({ outcome: "fallback" })
    }))

  it.effect("a valid answer after invalid ones goes on as usual", () =>
    Effect.gen(function*() {
      const flow = asking({ kind: "email" })
      const first = yield* say(flow, yield* open(flow, {}), "nope")
      const second = yield* say(flow, first, "ann@example.com")
      expect(second.state).toEqual({
        status: "ended",
        nodeId: null,
        attempts: 0,
        variables: { answer: "ann@example.com" }
      })
    }))

  it.effect("with maxAttempts 1, the first invalid answer follows the fallback", () =>
    Effect.gen(function*() {
      const flow = asking({ kind: "number" }, { data: { maxAttempts: 1 } })
      const step = yield* say(flow, yield* open(flow, {}), "many")
      expect(step.path).toEqual(["ask", "gave_up"])
    }))

  it.effect("without a fallback edge the session ends as a dead end at maxAttempts", () =>
    Effect.gen(function*() {
      const flow = asking({ kind: "number" }, { fallback: false, data: { maxAttempts: 2 } })
      const first = yield* say(flow, yield* open(flow, {}), "x")
      const second = yield* say(flow, first, "y")
      expect(second.messages).toEqual([{
        type: "end",
        nodeId: "ask",
        text: ENGINE_END_TEXT["dead-end"],
        outcome: "dead-end"
      }])
      expect(second.state.status).toBe("ended")
    }))

  it.effect("without a reprompt, a default sentence says what is expected", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [object, string, string]> = [
        [{ kind: "text", minLength: 3 }, "en", "Please enter an answer of at least 3 characters."],
        [{ kind: "text", minLength: 2, maxLength: 9 }, "en", "Please enter an answer between 2 and 9 characters."],
        [{ kind: "number" }, "en", "Please enter a number."],
        [{ kind: "number", integer: true, min: 1, max: 5 }, "en", "Please enter a whole number between 1 and 5."],
        [{ kind: "number", max: 5 }, "en", "Please enter a number of at most 5."],
        [{ kind: "email" }, "en", "Please enter a valid email address."],
        [{ kind: "date" }, "en-US", "Please enter a valid date, such as 12/31/2025."],
        [{ kind: "date" }, "en-GB", "Please enter a valid date, such as 31/12/2025."],
        [
          { kind: "regex", pattern: "\\d+", hint: "an order number like 12345" },
          "en",
          "Please enter an order number like 12345."
        ],
        [{ kind: "regex", pattern: "\\d+" }, "en", "Please enter a valid answer."]
      ]
      for (const [validation, locale, sentence] of cases) {
        const flow = asking(validation, { locale })
        const step = yield* say(flow, yield* open(flow, {}), "x")
        expect(texts(step), JSON.stringify(validation)).toEqual([sentence])
      }
    }))

  it.effect("a choice repeats its quick replies with the reprompt", () =>
    Effect.gen(function*() {
      const flow = asking({ kind: "choice", options: [{ value: "y", label: "Yes" }, { value: "n", label: "No" }] })
      const step = yield* say(flow, yield* open(flow, {}), "maybe")
      expect(step.messages).toEqual([
        {
          type: "buttons",
          text: "Please choose one of: Yes, No.",
          display: "quick-replies",
          buttons: [{ label: "Yes", payload: "y" }, { label: "No", payload: "n" }],
          nodeId: "ask"
        }
      ])
    }))

  it.effect("a question reached again after an answer starts its attempts afresh", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), question("ask", "n", { kind: "number" }, { maxAttempts: 2 }), end("gave_up")],
        edges: [
          ...chain("start", "ask"),
          edge("ask", "ask", { kind: "answered" }),
          edge("ask", "gave_up", { kind: "fallback" })
        ]
      })
      const first = yield* say(flow, yield* open(flow, {}), "x")
      expect(first.state.attempts).toBe(1)
      const answered = yield* say(flow, first, "4")
      expect(answered.state).toEqual({ status: "active", nodeId: "ask", attempts: 0, variables: { n: 4 } })
      expect(answered.path).toEqual(["ask", "ask"])
      expect(texts(answered)).toEqual(["Question ask?"])
    }))
})
