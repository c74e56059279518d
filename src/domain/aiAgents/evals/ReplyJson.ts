/**
 * The JSON an agent's reply carries, for a `json-schema` expectation: the
 * whole reply when it parses as JSON, else the content of its one fenced code
 * block marked `json` (or unmarked). No JSON, or more than one such block, is
 * a reason the expectation fails, in a sentence.
 */
import { Either } from "effect"
import type { JsonValue } from "../../Json.js"

const FENCE = "```"

const parsed = (text: string): Either.Either<JsonValue, string> => {
  try {
    return Either.right(JSON.parse(text) as JsonValue)
  } catch (error) {
    return Either.left(error instanceof Error ? error.message : String(error))
  }
}

/** The fenced blocks of `text` whose language is `json` or none, as their contents. */
const jsonBlocks = (text: string): Array<string> => {
  const blocks: Array<string> = []
  let from = 0
  while (true) {
    const open = text.indexOf(FENCE, from)
    if (open < 0) return blocks
    const lineEnd = text.indexOf("\n", open + FENCE.length)
    if (lineEnd < 0) return blocks
    const close = text.indexOf(FENCE, lineEnd + 1)
    if (close < 0) return blocks
    const language = text.slice(open + FENCE.length, lineEnd).trim().toLowerCase()
    if (language === "json" || language === "") blocks.push(text.slice(lineEnd + 1, close))
    from = close + FENCE.length
  }
}

/** The reply's JSON, or why there is none. */
export const replyJson = (reply: string): Either.Either<JsonValue, string> => {
  const whole = reply.trim()
  if (whole !== "") {
    const value = parsed(whole)
    if (Either.isRight(value)) return value
  }
  const blocks = jsonBlocks(reply)
  if (blocks.length === 0) return Either.left("The reply is not JSON and has no fenced ```json block")
  if (blocks.length > 1) {
    return Either.left(`The reply has ${blocks.length} fenced JSON blocks; the expectation takes exactly one`)
  }
  return Either.mapLeft(
    parsed(blocks[0]!.trim()),
    (reason) => `The reply's fenced JSON block does not parse: ${reason}`
  )
}
