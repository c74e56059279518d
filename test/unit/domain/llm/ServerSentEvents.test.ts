import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { feedSse, initialSseState, type ServerSentEvent } from "../../../../src/domain/llm/ServerSentEvents.js"

/** Every event of `pieces`, fed in order. */
const parse = (pieces: ReadonlyArray<string>, max?: number) => {
  let state = initialSseState
  const events: Array<ServerSentEvent> = []
  let tooLarge = false
  for (const piece of pieces) {
    const step = feedSse(state, piece, max)
    state = step.state
    events.push(...step.events)
    tooLarge ||= step.tooLarge
  }
  return { events, tooLarge, state }
}

describe("the event-stream parser", () => {
  it("reads OpenAI's and Anthropic's framing: named events, data, the [DONE] sentinel", () => {
    const body = "event: message_start\ndata: {\"a\":1}\n\n" +
      "data: {\"b\":2}\n\n" +
      "data: [DONE]\n\n"
    expect(parse([body]).events).toEqual([
      { event: "message_start", data: "{\"a\":1}", id: undefined },
      { event: "message", data: "{\"b\":2}", id: undefined },
      { event: "message", data: "[DONE]", id: undefined }
    ])
  })

  it("follows the standard: CRLF, CR and LF lines, comments, multi-line data, no space after the colon, a field alone", () => {
    const body = "\uFEFF: heartbeat\r\ndata:first\rdata: second\r\n\r\n" +
      "event: ping\ndata\n\n" +
      "event: nothing\n\n" +
      "id: 7\ndata: with id\n\n" +
      "retry: 1000\nunknown: x\ndata: after\n\n" +
      "id: bad\0id\ndata: keeps 7\n\n"
    expect(parse([body]).events).toEqual([
      { event: "message", data: "first\nsecond", id: undefined },
      { event: "ping", data: "", id: undefined },
      { event: "message", data: "with id", id: "7" },
      { event: "message", data: "after", id: "7" },
      { event: "message", data: "keeps 7", id: "7" }
    ])
  })

  it("an unfinished event is held, not dispatched, until its blank line", () => {
    const { events, state } = parse(["data: one\n\ndata: two\n"])
    expect(events.map((event) => event.data)).toEqual(["one"])
    expect(state.data).toEqual(["two"])
  })

  it("gives the same events however the body is cut into pieces (a CR at a cut waits for its LF)", () => {
    const body = "event: a\r\ndata: x\r\n\r\n: c\rdata: y\rdata: z\r\rid: 3\ndata: \u00e9\u{1F600}\n\n"
    const whole = parse([body]).events
    expect(whole).toHaveLength(3)
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 12 }), (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b)
        const pieces = [0, ...sorted].map((start, index) => body.slice(start, sorted[index] ?? body.length))
        expect(parse(pieces).events).toEqual(whole)
      }),
      { numRuns: 400 }
    )
  })

  it("stops a server that never ends an event once it passes the bound", () => {
    expect(parse(["data: ", "x".repeat(50)], 40).tooLarge).toBe(true)
    expect(parse(["data: a\n", "data: ", "b".repeat(30), "\n"], 25).tooLarge).toBe(true)
    expect(parse(["data: ", "x".repeat(30), "\n\n"], 40).tooLarge).toBe(false)
  })
})
