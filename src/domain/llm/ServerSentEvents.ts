/**
 * An incremental parser of a `text/event-stream` body (the HTML living
 * standard's event-stream interpretation), as a pure step: the state and the
 * next piece of decoded text give the events completed by it and the state
 * to carry on with. Lines end at CRLF, LF or CR (a CR at the end of a piece
 * waits for the next one, which may start with its LF); a line starting with
 * ":" is a comment (a heartbeat); `data` lines join with "\n"; a blank line
 * ends an event, which is dispatched only when it has data; `id` persists as
 * the last event id (one holding NUL is ignored); `retry` and unknown fields
 * are ignored; a byte-order mark at the very start is dropped. An event whose
 * pending text passes `maxEventChars` stops the parse (`tooLarge`), so a
 * server that never ends a line cannot grow memory without bound.
 * It replaces @effect/experimental's Sse channel on the providers' streams:
 * that one scans character by character and runs a mailbox and a fiber per
 * stream (bench/providers).
 */

/** A dispatched event: its type ("message" unless named), its data and the last event id seen. */
export interface ServerSentEvent {
  readonly event: string
  readonly data: string
  readonly id: string | undefined
}

/** What the parser carries from one piece of text to the next. */
export interface SseState {
  readonly pending: string
  readonly data: ReadonlyArray<string>
  readonly event: string | undefined
  readonly lastId: string | undefined
  readonly started: boolean
}

/** What a step gives: the events it completed and the state to go on with. */
export interface SseStep {
  readonly state: SseState
  readonly events: ReadonlyArray<ServerSentEvent>
  readonly tooLarge: boolean
}

export const initialSseState: SseState = {
  pending: "",
  data: [],
  event: undefined,
  lastId: undefined,
  started: false
}

/** 10 MiB of text by default, as @effect/experimental's parser. */
export const defaultMaxEventChars = 10 * 1024 * 1024

/** Parses `text`, the next piece of the body, from `state`. */
export const feedSse = (state: SseState, text: string, maxEventChars = defaultMaxEventChars): SseStep => {
  let buffer = state.pending + text
  if (!state.started && buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1)
  const events: Array<ServerSentEvent> = []
  const data = [...state.data]
  let dataChars = data.reduce((sum, line) => sum + line.length, 0)
  let event = state.event
  let lastId = state.lastId
  let position = 0
  for (;;) {
    const lineFeed = buffer.indexOf("\n", position)
    const carriageReturn = buffer.indexOf("\r", position)
    let end: number
    let next: number
    if (carriageReturn !== -1 && (lineFeed === -1 || carriageReturn < lineFeed)) {
      if (carriageReturn === buffer.length - 1) break
      end = carriageReturn
      next = buffer.charCodeAt(carriageReturn + 1) === 10 ? carriageReturn + 2 : carriageReturn + 1
    } else if (lineFeed !== -1) {
      end = lineFeed
      next = lineFeed + 1
    } else {
      break
    }
    const line = buffer.slice(position, end)
    position = next
    if (line === "") {
      if (data.length > 0) events.push({ event: event ?? "message", data: data.join("\n"), id: lastId })
      data.length = 0
      dataChars = 0
      event = undefined
      continue
    }
    if (line.charCodeAt(0) === 58) continue
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? "" : line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1)
    switch (field) {
      case "data":
        data.push(value)
        dataChars += value.length
        break
      case "event":
        event = value
        break
      case "id":
        if (!value.includes("\0")) lastId = value
        break
    }
  }
  const pending = buffer.slice(position)
  return {
    state: { pending, data, event, lastId, started: state.started || text.length > 0 },
    events,
    tooLarge: pending.length + dataChars > maxEventChars
  }
}
