import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import type { BotMessage } from "../../../../src/domain/runtime/BotMessage.js"
import { ENGINE_END_TEXT } from "../../../../src/domain/runtime/engine/EndTexts.js"
import { advance, MAX_NODES_PER_STEP, open } from "../../../../src/domain/runtime/engine/FlowEngine.js"
import { compile } from "../../../../src/domain/runtime/engine/FlowProgram.js"
import {
  ai,
  chain,
  condition,
  edge,
  end,
  handoff,
  http,
  intent,
  jumpTo,
  jumpToSubflow,
  lastMessage,
  message,
  node,
  press,
  program,
  question,
  router,
  say,
  setExpression,
  setValue,
  start,
  subflow,
  texts
} from "./FlowFixtures.js"

const compileFindings = (
  nodes: Parameters<typeof compile>[0]["nodes"],
  edges: Parameters<typeof compile>[0]["edges"]
) =>
  compile({ nodes, edges, subflows: [], intents: [], nluThreshold: 0.5, locale: "en" }).pipe(
    Either.match({ onLeft: (findings) => findings, onRight: () => [] })
  )

/** The engine's own end: it tells the user the conversation is over. */
const deadEnd = (nodeId: string): BotMessage =>
  ({ type: "end", nodeId, text: ENGINE_END_TEXT["dead-end"], outcome: "dead-end" }) as BotMessage

describe("compile", () => {
  it("refuses a flow without a start node", () => {
    const [finding] = compileFindings([message("hello", "Hi")], [])
    expect(finding).toMatchObject({ code: "missing-start", severity: "error", nodeIds: [] })
  })

  it("refuses a flow with two start nodes, naming both", () => {
    const findings = compileFindings([start("a"), start("b"), end()], [...chain("a", "end"), ...chain("b", "end")])
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ code: "multiple-starts", severity: "error", nodeIds: ["a", "b"] })
  })

  it("refuses a start without a next edge", () => {
    const findings = compileFindings([start(), end()], [])
    expect(findings[0]).toMatchObject({ code: "dead-end", nodeIds: ["start"], repairable: false })
  })

  it("refuses a start whose next edge leads to no node", () => {
    const broken = edge("start", "nowhere")
    const findings = compileFindings([start(), end()], [broken])
    expect(findings[0]).toMatchObject({ code: "broken-reference", nodeIds: ["start"], edgeIds: [broken.id] })
  })

  it("accepts a flow that can run, whatever else is wrong with it", () => {
    const compiled = compile({
      nodes: [start(), message("orphan", "never reached"), condition("broken", [["a", "1 +"]]), end()],
      edges: chain("start", "end"),
      subflows: [],
      intents: [],
      nluThreshold: 0.5,
      locale: "xx-invalid-locale"
    })
    expect(Either.isRight(compiled)).toBe(true)
  })
})

describe("start, message and end", () => {
  it.effect("runs from the start to the end in one step", () =>
    Effect.gen(function*() {
      const flow = program({ nodes: [start(), message("hi", "Hello!"), end()], edges: chain("start", "hi", "end") })
      const step = yield* open(flow, {})
      expect(step.messages).toEqual([{ type: "text", text: "Hello!", nodeId: "hi" }, { type: "end", nodeId: "end" }])
      expect(step.state).toEqual({ status: "ended", nodeId: null, attempts: 0, variables: {} })
      expect(step.path).toEqual(["start", "hi", "end"])
      expect(step.nlu).toBeNull()
    }))

  it.effect("shows the image first, then the text with its buttons; the delay goes on the first message", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          message("menu", "Pick one, {{name}}", {
            image: { url: "https://example.com/menu.png", alt: "The menu" },
            buttons: [{ label: "Tea", payload: "tea" }, { label: "Coffee", payload: "coffee" }],
            delayMs: 800
          }),
          end()
        ],
        edges: chain("start", "menu", "end")
      })
      const step = yield* open(flow, { name: "Ann" })
      expect(step.messages.slice(0, 2)).toEqual([
        { type: "image", url: "https://example.com/menu.png", alt: "The menu", nodeId: "menu", delayMs: 800 },
        {
          type: "buttons",
          text: "Pick one, Ann",
          display: "buttons",
          buttons: [{ label: "Tea", payload: "tea" }, { label: "Coffee", payload: "coffee" }],
          nodeId: "menu"
        }
      ])
    }))

  it.effect("carries the delay on a lone text message and leaves out an image's missing alt", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          message("a", "One", { delayMs: 250 }),
          message("b", "Two", { image: { url: "https://example.com/x.png" } }),
          end()
        ],
        edges: chain("start", "a", "b", "end")
      })
      const step = yield* open(flow, {})
      expect(step.messages.slice(0, 3)).toEqual([
        { type: "text", text: "One", nodeId: "a", delayMs: 250 },
        { type: "image", url: "https://example.com/x.png", nodeId: "b" },
        { type: "text", text: "Two", nodeId: "b" }
      ])
    }))

  it.effect("says nothing for a message that renders empty, and keeps buttons without text", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          message("empty", "{{missing}}"),
          message("only_buttons", "{{missing}}", { buttons: [{ label: "Go", payload: "go" }] }),
          end()
        ],
        edges: chain("start", "empty", "only_buttons", "end")
      })
      const step = yield* open(flow, {})
      expect(step.messages[0]).toEqual({
        type: "buttons",
        display: "buttons",
        buttons: [{ label: "Go", payload: "go" }],
        nodeId: "only_buttons"
      })
      expect(step.path).toEqual(["start", "empty", "only_buttons", "end"])
    }))

  it.effect("renders templates: nested paths, array indexes, missing values and non-strings", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          message(
            "t",
            "{{name}}|{{ order.total }}|{{order.items.1.sku}}|{{nope}}|{{order.nope.deeper}}|{{gone}}|{{flag}}|{{list}}|{{order.meta}}|{{ 1 + 2 }}|{{name.length}}"
          ),
          end()
        ],
        edges: chain("start", "t", "end")
      })
      const step = yield* open(flow, {
        name: "Ann",
        order: { total: 12.5, items: [{ sku: "A1" }, { sku: "B2" }], meta: { gift: true } },
        gone: null,
        flag: false,
        list: [1, "two"]
      })
      expect(texts(step)[0]).toBe(`Ann|12.5|B2||||false|[1,"two"]|{"gift":true}|{{ 1 + 2 }}|`)
    }))

  it.effect("ends with a rendered message and an outcome", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), end("done", { message: "Bye {{name}}", outcome: "resolved" })],
        edges: chain("start", "done")
      })
      const step = yield* open(flow, { name: "Ann" })
      expect(step.messages).toEqual([{ type: "end", text: "Bye Ann", outcome: "resolved", nodeId: "done" }])
      expect(step.state.status).toBe("ended")
    }))
})

describe("handoff", () => {
  it.effect("hands off with a rendered message and the connection's queue", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          handoff("human", {
            target: { kind: "connection", connectionId: "00000000-0000-4000-8000-000000000002", queue: "billing" },
            message: "Connecting you, {{name}}"
          })
        ],
        edges: chain("start", "human")
      })
      const step = yield* open(flow, { name: "Ann" })
      expect(step.messages).toEqual([
        { type: "handoff", text: "Connecting you, Ann", queue: "billing", nodeId: "human" }
      ])
      expect(step.state).toEqual({ status: "handed-off", nodeId: null, attempts: 0, variables: { name: "Ann" } })
    }))

  it.effect("hands off to the default target without a queue or text", () =>
    Effect.gen(function*() {
      const flow = program({ nodes: [start(), handoff("human")], edges: chain("start", "human") })
      const step = yield* open(flow, {})
      expect(step.messages).toEqual([{ type: "handoff", nodeId: "human" }])
      expect(step.state.status).toBe("handed-off")
    }))
})

describe("set-variable", () => {
  it.effect("sets a literal JSON value", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), setValue("set", "plan", { tier: "gold", seats: [1, 2] }), end()],
        edges: chain("start", "set", "end")
      })
      const step = yield* open(flow, { plan: "old" })
      expect(step.state.variables).toEqual({ plan: { tier: "gold", seats: [1, 2] } })
    }))

  it.effect("sets what an expression computes over vars", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          setExpression("total", "total", "$sum(vars.items.(price * qty))"),
          setExpression("label", "label", "vars.name & ' (' & $string(vars.total) & ')'"),
          setExpression("seq", "seq", "vars.items.price"),
          end()
        ],
        edges: chain("start", "total", "label", "seq", "end")
      })
      const step = yield* open(flow, { name: "Ann", items: [{ price: 2, qty: 3 }, { price: 1.5, qty: 2 }] })
      expect(step.state.variables).toMatchObject({ total: 9, label: "Ann (9)", seq: [2, 1.5] })
    }))

  it.effect("sets null when the expression has no value, fails, or computes something that is not JSON", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          setExpression("missing", "missing", "vars.nothing.here"),
          setExpression("thrown", "thrown", "$error('boom')"),
          setExpression("syntax", "syntax", "1 +"),
          setExpression("fn", "fn", "function($x) { $x }"),
          setExpression("partial", "partial", "{ 'a': 1, 'b': vars.nothing, 'c': function($x) { $x } }"),
          end()
        ],
        edges: chain("start", "missing", "thrown", "syntax", "fn", "partial", "end")
      })
      const step = yield* open(flow, {})
      expect(step.state.variables).toEqual({ missing: null, thrown: null, syntax: null, fn: null, partial: { a: 1 } })
      expect(step.state.status).toBe("ended")
    }))

  it.effect("keeps within MAX_VARIABLES: a new variable beyond it is dropped, an existing one still changes", () =>
    Effect.gen(function*() {
      const full = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`v${index}`, index]))
      const flow = program({
        nodes: [start(), setValue("new", "extra", 1), setValue("old", "v0", "changed"), end()],
        edges: chain("start", "new", "old", "end")
      })
      const step = yield* open(flow, full)
      expect(Object.keys(step.state.variables)).toHaveLength(200)
      expect(step.state.variables["extra"]).toBeUndefined()
      expect(step.state.variables["v0"]).toBe("changed")
    }))

  it.effect("stores a variable named __proto__ as a plain variable", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          setValue("set", "__proto__", { polluted: true }),
          message("m", "{{__proto__.polluted}}"),
          end()
        ],
        edges: chain("start", "set", "m", "end")
      })
      const step = yield* open(flow, {})
      expect(Object.keys(step.state.variables)).toEqual(["__proto__"])
      expect(texts(step)[0]).toBe("true")
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
    }))

  it.effect("does not change the variables it was given", () =>
    Effect.gen(function*() {
      const variables = { count: 1 }
      const flow = program({
        nodes: [start(), setValue("set", "count", 2), end()],
        edges: chain("start", "set", "end")
      })
      yield* open(flow, variables)
      expect(variables).toEqual({ count: 1 })
    }))
})

describe("condition", () => {
  const branching = (cases: ReadonlyArray<readonly [string, string]>, withFallback = true) =>
    program({
      nodes: [
        start(),
        condition("check", cases),
        ...cases.map(([key]) => end(`end_${key}`, { outcome: key })),
        end("otherwise", { outcome: "fallback" })
      ],
      edges: [
        ...chain("start", "check"),
        ...cases.map(([key]) => edge("check", `end_${key}`, { kind: "case", case: key })),
        ...(withFallback ? [edge("check", "otherwise", { kind: "fallback" })] : [])
      ]
    })
  const outcome = (step: { readonly messages: ReadonlyArray<BotMessage> }) => {
    const last = step.messages[step.messages.length - 1]
    return last?.type === "end" ? last.outcome : undefined
  }

  it.effect("takes the first true case, in order", () =>
    Effect.gen(function*() {
      const flow = branching([["small", "vars.total < 10"], ["big", "vars.total >= 10"], ["any", "true"]])
      expect(outcome(yield* open(flow, { total: 50 }))).toBe("big")
      expect(outcome(yield* open(flow, { total: 5 }))).toBe("small")
    }))

  it.effect("follows the fallback when no case holds, and ends as a dead end without one", () =>
    Effect.gen(function*() {
      const cases = [["vip", "vars.tier = 'vip'"]] as const
      expect(outcome(yield* open(branching(cases), { tier: "basic" }))).toBe("fallback")
      const step = yield* open(branching(cases, false), { tier: "basic" })
      expect(step.messages).toEqual([deadEnd("check")])
      expect(step.state.status).toBe("ended")
    }))

  it.effect("counts a failing expression as false and goes on to the next case", () =>
    Effect.gen(function*() {
      const flow = branching([
        ["thrown", "$error('no')"],
        ["syntax", "vars.a = "],
        ["unknown", "$nosuchfunction(1)"],
        ["type", "'a' + 1"],
        ["ok", "true"]
      ])
      expect(outcome(yield* open(flow, {}))).toBe("ok")
    }))

  it.effect("reads truth as JSONata's $boolean does", () =>
    Effect.gen(function*() {
      const flow = branching([
        ["empty_string", "''"],
        ["zero", "0"],
        ["empty_array", "[]"],
        ["empty_object", "{}"],
        ["null", "null"],
        ["missing", "vars.nothing"],
        ["false_array", "[0, '']"],
        ["yes", "[0, 'x']"]
      ])
      expect(outcome(yield* open(flow, {}))).toBe("yes")
    }))

  it.effect("reads the last user message as input, with null fields before any", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          condition("before", [["none", "input.text = null and input.payload = null and input.intent = null"]]),
          question("ask", "answer", { kind: "text" }),
          condition("after", [["typed", "input.text = 'hello' and vars.answer = 'hello'"], [
            "pressed",
            "input.payload = 'btn'"
          ]]),
          end("typed_end", { outcome: "typed" }),
          end("pressed_end", { outcome: "pressed" })
        ],
        edges: [
          ...chain("start", "before"),
          edge("before", "ask", { kind: "case", case: "none" }),
          edge("ask", "after", { kind: "answered" }),
          edge("after", "typed_end", { kind: "case", case: "typed" }),
          edge("after", "pressed_end", { kind: "case", case: "pressed" })
        ]
      })
      const opened = yield* open(flow, {})
      expect(opened.state.nodeId).toBe("ask")
      expect(outcome(yield* say(flow, opened, "hello"))).toBe("typed")
      expect(outcome(yield* press(flow, opened, "btn"))).toBe("pressed")
    }))

  it.effect("stops an expression that runs away (a step limit, not a clock) and counts it as false", () =>
    Effect.gen(function*() {
      const flow = branching([
        ["forever", "( $f := function($n) { $f($n + 1) }; $f(0) )"],
        ["deep", "( $g := function($n) { 1 + $g($n + 1) }; $g(0) )"],
        ["huge", "$count([1..100000]) > 0"],
        ["redos", "$contains(vars.text, /(a+)+$/)"],
        ["ok", "true"]
      ])
      expect(outcome(yield* open(flow, { text: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" }))).toBe("ok")
    }))

  it.effect("shares one budget of evaluation steps between the expressions of a step", () =>
    Effect.gen(function*() {
      const heavy = "$count([1..9000].($ * 2)) < 0"
      const alone = branching([["heavy", heavy], ["ok", "true"]])
      expect(outcome(yield* open(alone, {}))).toBe("ok")
      const many = branching([...Array.from({ length: 10 }, (_, index) => [`h${index}`, heavy] as const), [
        "ok",
        "true"
      ]])
      expect(outcome(yield* open(many, {}))).toBe("fallback")
    }))

  it.effect("reads $now() and $millis() from Effect's Clock", () =>
    Effect.gen(function*() {
      const flow = branching([["later", "$millis() >= 60000 and $now() = '1970-01-01T00:01:00.000Z'"]])
      expect(outcome(yield* open(flow, {}))).toBe("fallback")
      yield* TestClock.adjust("1 minute")
      expect(outcome(yield* open(flow, {}))).toBe("later")
    }))

  it.effect("draws $random() and $shuffle() from a seed, so a conversation takes the same branch every time", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          setExpression("r", "r", "$random()"),
          setExpression("s", "s", "$shuffle([1, 2, 3, 4, 5, 6, 7, 8])"),
          end()
        ],
        edges: chain("start", "r", "s", "end")
      })
      const first = yield* open(flow, { user: "a" })
      const again = yield* open(flow, { user: "a" })
      const other = yield* open(flow, { user: "b" })
      expect(again.state.variables).toEqual(first.state.variables)
      expect(first.state.variables["r"]).not.toEqual(other.state.variables["r"])
      expect([...(first.state.variables["s"] as ReadonlyArray<number>)].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    }))
})

describe("jump", () => {
  it.effect("continues at a node", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), jumpTo("go", "far"), message("skipped", "no"), message("far", "Far away"), end()],
        edges: [...chain("start", "go"), ...chain("skipped", "far", "end")]
      })
      const step = yield* open(flow, {})
      expect(step.path).toEqual(["start", "go", "far", "end"])
      expect(texts(step)[0]).toBe("Far away")
    }))

  it.effect("continues at a sub-flow's entry node", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          jumpToSubflow("go", "billing"),
          message("entry", "Billing here", { subflow: "billing" }),
          end()
        ],
        edges: [...chain("start", "go"), ...chain("entry", "end")],
        subflows: [subflow("billing", "entry")]
      })
      const step = yield* open(flow, {})
      expect(step.path).toEqual(["start", "go", "entry", "end"])
    }))

  it.effect("ends as a dead end at the jump when its node or sub-flow does not exist", () =>
    Effect.gen(function*() {
      const toNode = program({ nodes: [start(), jumpTo("go", "ghost")], edges: chain("start", "go") })
      expect((yield* open(toNode, {})).messages).toEqual([deadEnd("go")])
      const toSubflow = program({ nodes: [start(), jumpToSubflow("go", "ghost")], edges: chain("start", "go") })
      expect((yield* open(toSubflow, {})).messages).toEqual([deadEnd("go")])
      const brokenEntry = program({
        nodes: [start(), jumpToSubflow("go", "billing")],
        edges: chain("start", "go"),
        subflows: [subflow("billing", "ghost")]
      })
      expect((yield* open(brokenEntry, {})).messages).toEqual([deadEnd("go")])
    }))
})

describe("http and ai", () => {
  it.effect("fail at once and follow their error edge", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), http("call"), ai("think"), message("sorry", "Something went wrong"), end(), end("never")],
        edges: [
          ...chain("start", "call"),
          edge("call", "never"),
          edge("call", "think", { kind: "error" }),
          edge("think", "never"),
          edge("think", "sorry", { kind: "error" }),
          ...chain("sorry", "end")
        ]
      })
      const step = yield* open(flow, {})
      expect(step.path).toEqual(["start", "call", "think", "sorry", "end"])
      expect(step.state.variables).toEqual({})
    }))

  it.effect("end the session as a dead end without an error edge", () =>
    Effect.gen(function*() {
      for (const failing of [http("call"), ai("call")]) {
        const flow = program({
          nodes: [start(), failing, end()],
          edges: [...chain("start", "call"), edge("call", "end")]
        })
        const step = yield* open(flow, {})
        expect(step.messages).toEqual([deadEnd("call")])
        expect(step.state).toMatchObject({ status: "ended", nodeId: null })
      }
    }))
})

describe("run-time limits", () => {
  it.effect("ends a message without a next edge as a dead end", () =>
    Effect.gen(function*() {
      const flow = program({ nodes: [start(), message("hi", "Hello")], edges: chain("start", "hi") })
      const step = yield* open(flow, {})
      expect(step.messages).toEqual([{ type: "text", text: "Hello", nodeId: "hi" }, deadEnd("hi")])
      expect(step.state).toEqual({ status: "ended", nodeId: null, attempts: 0, variables: {} })
    }))

  it.effect("ends as a dead end when an edge leads to no node", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), message("hi", "Hello")],
        edges: [...chain("start", "hi"), edge("hi", "ghost")]
      })
      expect(lastMessage(yield* open(flow, {}))).toEqual(deadEnd("hi"))
    }))

  it.effect("ends a loop that never waits after MAX_NODES_PER_STEP nodes", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [start(), setExpression("count", "n", "$exists(vars.n) ? vars.n + 1 : 1"), message("say", "{{n}}")],
        edges: [...chain("start", "count", "say"), edge("say", "count")]
      })
      const step = yield* open(flow, {})
      expect(step.path).toHaveLength(MAX_NODES_PER_STEP)
      // start, then count/say pairs: the 201st node would have been `say`.
      expect(lastMessage(step)).toEqual({
        type: "end",
        nodeId: "say",
        text: ENGINE_END_TEXT["loop-limit"],
        outcome: "loop-limit"
      })
      expect(step.state).toMatchObject({ status: "ended", nodeId: null, variables: { n: 100 } })
    }))

  it.effect("lets a loop with a way out run to its end", () =>
    Effect.gen(function*() {
      const flow = program({
        nodes: [
          start(),
          setExpression("count", "n", "$exists(vars.n) ? vars.n + 1 : 1"),
          condition("more", [["yes", "vars.n < 50"]]),
          end()
        ],
        edges: [
          ...chain("start", "count", "more"),
          edge("more", "count", { kind: "case", case: "yes" }),
          edge("more", "end", { kind: "fallback" })
        ]
      })
      const step = yield* open(flow, {})
      expect(step.state).toMatchObject({ status: "ended", variables: { n: 50 } })
      expect(step.path).toHaveLength(1 + 50 * 2 + 1)
    }))
})

describe("advance", () => {
  const asking = program({
    nodes: [start(), question("ask", "name", { kind: "text" }), message("thanks", "Thanks {{name}}"), end()],
    edges: [...chain("start", "ask"), edge("ask", "thanks", { kind: "answered" }), ...chain("thanks", "end")]
  })

  it.effect("changes nothing on a session that is over", () =>
    Effect.gen(function*() {
      for (const status of ["ended", "handed-off"] as const) {
        const state = { status, nodeId: null, attempts: 0, variables: { a: 1 } }
        const step = yield* advance(asking, state, { text: "hello" })
        expect(step).toEqual({ messages: [], state, path: [], nlu: null })
      }
    }))

  it.effect("ends as a dead end when the waiting node is gone from the program", () =>
    Effect.gen(function*() {
      const opened = yield* open(asking, {})
      const changed = program({ nodes: [start(), end()], edges: chain("start", "end") })
      const step = yield* advance(changed, opened.state, { text: "Ann" })
      expect(step.messages).toEqual([deadEnd("ask")])
      expect(step.path).toEqual([])
      expect(step.state.status).toBe("ended")
    }))

  it.effect("runs a waiting node that is no longer a question or router as if just arrived at", () =>
    Effect.gen(function*() {
      const opened = yield* open(asking, {})
      const changed = program({
        nodes: [start(), message("ask", "Now a message"), end()],
        edges: chain("start", "ask", "end")
      })
      const step = yield* advance(changed, opened.state, { text: "Ann" })
      expect(texts(step)).toEqual(["Now a message", undefined])
      expect(step.path).toEqual(["ask", "end"])
      expect(step.state.variables).toEqual({})
    }))

  it.effect("runs on from the answer to the end", () =>
    Effect.gen(function*() {
      const opened = yield* open(asking, {})
      const step = yield* say(asking, opened, "Ann")
      expect(texts(step)).toEqual(["Thanks Ann", undefined])
      expect(step.path).toEqual(["ask", "thanks", "end"])
      expect(step.state).toEqual({ status: "ended", nodeId: null, attempts: 0, variables: { name: "Ann" } })
    }))
})

describe("determinism", () => {
  it.effect("gives the same step for the same program, state and input", () =>
    Effect.gen(function*() {
      const build = () =>
        program({
          nodes: [
            start(),
            router("route", ["order", "refund"]),
            setExpression("pick", "pick", "$random() < 0.5 ? 'a' : 'b'"),
            condition("which", [["a", "vars.pick = 'a'"]]),
            end("end_a", { message: "A {{city}}" }),
            end("end_b", { message: "B {{city}}" }),
            end("out")
          ],
          edges: [
            ...chain("start", "route"),
            edge("route", "pick", { kind: "intent", intent: "order" }),
            edge("route", "pick", { kind: "intent", intent: "refund" }),
            edge("route", "out", { kind: "fallback" }),
            ...chain("pick", "which"),
            edge("which", "end_a", { kind: "case", case: "a" }),
            edge("which", "end_b", { kind: "fallback" })
          ],
          intents: [
            intent("order", ["I want to order a pizza", "order food to {city}"], [{
              name: "city",
              entity: { kind: "list", values: [{ value: "Paris" }, { value: "London" }] }
            }]),
            intent("refund", ["I want my money back", "refund my order"])
          ]
        })
      const run = (flow: ReturnType<typeof build>) =>
        Effect.gen(function*() {
          const opened = yield* open(flow, { user: "u1" })
          return yield* say(flow, opened, "please order food to paris")
        })
      const first = yield* run(build())
      const second = yield* run(build())
      expect(second).toEqual(first)
      expect(first.nlu?.intent).toBe("order")
    }))
})

describe("node fixtures", () => {
  it("decode through the real schemas", () => {
    expect(() => node("bad id!", "start", {})).toThrow()
  })
})
