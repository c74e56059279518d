/**
 * Turning a valid-shaped JSON body into a bad one: one to three mutations at
 * places picked anywhere in the value (a wrong type, a missing or extra field,
 * a huge or deeply nested value, text Parley cannot store, an extreme number, a
 * hostile pattern), or a body that is bad as a whole (not JSON, cut short,
 * invalid UTF-8, duplicate keys, the wrong media type). Deep nesting and raw
 * numbers are written into the JSON text itself, so the suite's own stack and
 * number parsing never get in the way.
 */
import { AWKWARD_TEXT, HOSTILE_EXPRESSIONS, HOSTILE_INPUTS, HOSTILE_PATTERNS, UNSTORABLE_TEXT } from "./Adversarial.js"
import type { Dice } from "./Dice.js"

/** A body on the wire, and what was done to it (for the failure message). */
export interface WireBody {
  readonly bytes: Uint8Array
  readonly contentType: string
  readonly mutations: ReadonlyArray<string>
}

type Path = ReadonlyArray<string | number>
type Json = unknown

const pathText = (path: Path) =>
  "$" + path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key.slice(0, 40)}`)).join("")

/** Every place in a value (the root included), at most `limit` of them. */
const placesOf = (value: Json, limit = 400): Array<Path> => {
  const places: Array<Path> = []
  const walk = (node: Json, path: Path) => {
    if (places.length >= limit) return
    places.push(path)
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, [...path, index]))
    else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) walk(item, [...path, key])
    }
  }
  walk(value, [])
  return places
}

const parentOf = (root: Json, path: Path): any => path.slice(0, -1).reduce((node: any, key) => node?.[key], root)

/** `root` with `path` set to `value` (the root itself when `path` is empty). */
const setAt = (root: Json, path: Path, value: Json): Json => {
  if (path.length === 0) return value
  parentOf(root, path)[path[path.length - 1]!] = value
  return root
}

const kindOf = (value: Json) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)

const SOME_OF_EACH_TYPE: ReadonlyArray<Json> = [0, -1, 1.5, "x", "", true, false, null, [], [1, "a"], {}, { a: 1 }]

const marker = (index: number) => `\u0007FUZZ${index}\u0007`

/** Raw JSON text that a `JSON.stringify` could not write for us. */
const rawValue = (dice: Dice): { readonly text: string; readonly what: string } => {
  const depth = dice.pick([64, 1_000, 20_000, 200_000])
  switch (dice.int(0, 3)) {
    case 0:
      return { text: "[".repeat(depth) + "]".repeat(depth), what: `nested arrays ×${depth}` }
    case 1:
      return { text: "{\"a\":".repeat(depth) + "1" + "}".repeat(depth), what: `nested objects ×${depth}` }
    case 2: {
      const number = dice.pick(["1e400", "-1e400", "-0", "9007199254740993", "1.7976931348623157e309", "0.1e-400"])
      return { text: number, what: `number ${number}` }
    }
    default: {
      const count = dice.pick([10_000, 100_000])
      return { text: "[" + Array.from({ length: count }, () => "0").join(",") + "]", what: `array of ${count}` }
    }
  }
}

const hostileText = (dice: Dice) => dice.pick([...HOSTILE_PATTERNS, ...HOSTILE_EXPRESSIONS, ...HOSTILE_INPUTS])

/** Apply one mutation somewhere in `value`; what it was. Raw replacements are recorded in `raw`. */
const mutateOnce = (dice: Dice, value: { root: Json }, raw: Map<string, string>): string => {
  const places = placesOf(value.root)
  const path = dice.pick(places)
  const node = path.reduce((node: any, key) => node?.[key], value.root)
  const at = pathText(path)
  switch (dice.int(0, 8)) {
    case 0: {
      const others = SOME_OF_EACH_TYPE.filter((candidate) => kindOf(candidate) !== kindOf(node))
      value.root = setAt(value.root, path, structuredClone(dice.pick(others)))
      return `wrong type at ${at}`
    }
    case 1: {
      const parent = parentOf(value.root, path)
      if (path.length === 0 || parent === null || typeof parent !== "object") break
      if (Array.isArray(parent)) parent.splice(path[path.length - 1] as number, 1)
      else delete parent[path[path.length - 1]!]
      return `dropped ${at}`
    }
    case 2: {
      if (node === null || typeof node !== "object" || Array.isArray(node)) break
      const key = dice.pick(["extra", "__proto__", "constructor", "_tag", "", "a".repeat(1_000), ...UNSTORABLE_TEXT])
      Object.defineProperty(node, key, {
        value: dice.pick(SOME_OF_EACH_TYPE),
        enumerable: true,
        configurable: true,
        writable: true
      })
      return `extra field ${JSON.stringify(key.slice(0, 20))} at ${at}`
    }
    case 3: {
      const text = typeof node === "string" && dice.chance(0.5)
        ? node + dice.pick(UNSTORABLE_TEXT)
        : dice.pick(UNSTORABLE_TEXT)
      value.root = setAt(value.root, path, text)
      return `unstorable text at ${at}`
    }
    case 4: {
      const size = dice.pick([10_000, 300_000, 1_100_000])
      value.root = setAt(value.root, path, dice.pick(["x", "é", "🙂"]).repeat(size))
      return `huge string (${size}) at ${at}`
    }
    case 5:
    case 6: {
      const { text, what } = rawValue(dice)
      const key = marker(raw.size)
      raw.set(key, text)
      value.root = setAt(value.root, path, key)
      return `${what} at ${at}`
    }
    case 7:
      value.root = setAt(value.root, path, hostileText(dice))
      return `hostile pattern or input at ${at}`
    default:
      value.root = setAt(value.root, path, dice.pick(AWKWARD_TEXT))
      return `awkward text at ${at}`
  }
  value.root = setAt(value.root, path, null)
  return `null at ${at}`
}

const encoder = new TextEncoder()

/** A whole body that is bad in itself, from the valid-shaped JSON text. */
const badWholeBody = (dice: Dice, valid: string): WireBody => {
  const json = "application/json"
  const whole = (text: string | Uint8Array, what: string, contentType = json): WireBody => ({
    bytes: typeof text === "string" ? encoder.encode(text) : text,
    contentType,
    mutations: [what]
  })
  switch (dice.int(0, 9)) {
    case 0:
      return whole(
        dice.pick(["", " ", "{", "}", "[", "\"", "nul", "{\"a\":}", "{'a':1}", "{\"a\":1,}", "\u0000"]),
        "not JSON"
      )
    case 1:
      return whole(valid.slice(0, dice.int(0, Math.max(0, valid.length - 1))), "cut short")
    case 2:
      return whole(valid + dice.pick(["x", "}", " {}", "\u0000"]), "trailing garbage")
    case 3:
      return whole(dice.pick(["null", "1", "\"x\"", "[]", "true", "[{}]"]), "top-level wrong type")
    case 4: {
      const bad = dice.pick([[0xff, 0xfe], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]])
      const inside = valid.indexOf("\"")
      const head = encoder.encode(inside >= 0 ? valid.slice(0, inside + 1) : "\"")
      const tail = encoder.encode(inside >= 0 ? valid.slice(inside + 1) : "\"")
      return whole(
        new Uint8Array([...head, ...bad, ...tail]),
        `invalid UTF-8 ${bad.map((b) => b.toString(16)).join(" ")}`
      )
    }
    case 5:
      return whole(
        valid.startsWith("{") && valid !== "{}" ? valid.replace("{", "{\"a\":1,\"a\":2,") : "{\"a\":1,\"a\":2}",
        "duplicate keys"
      )
    case 6:
      return whole(
        valid.startsWith("{") && valid !== "{}"
          ? valid.replace("{", "{\"__proto__\":{\"polluted\":true},\"constructor\":{\"prototype\":{\"x\":1}},")
          : "{\"__proto__\":{\"polluted\":true}}",
        "prototype keys"
      )
    case 7:
      return whole("\ufeff" + valid, "byte-order mark")
    case 8:
      return whole(" ".repeat(dice.pick([10_000, 2_000_000])) + valid, "leading whitespace")
    default: {
      const contentType = dice.pick([
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "multipart/form-data",
        "application/json; charset=utf-16",
        "application/json; charset=\u00ff",
        "application/xml",
        "",
        "application/json, text/plain",
        "*/*"
      ])
      return whole(valid, `content type ${JSON.stringify(contentType)}`, contentType)
    }
  }
}

/** A bad JSON body made from a valid-shaped `value`. */
export const badJsonBody = (dice: Dice, value: Json): WireBody => {
  const roll = dice.int(0, 99)
  if (roll < 15) return badWholeBody(dice, JSON.stringify(value))
  const state = { root: structuredClone(value) }
  const raw = new Map<string, string>()
  // A few bodies stay valid in shape: their hostile content (patterns, text) must reach the services.
  const count = roll < 27 ? 0 : dice.int(1, 3)
  const mutations = Array.from({ length: count }, () => mutateOnce(dice, state, raw))
  let text = JSON.stringify(state.root) ?? "null"
  for (const [key, replacement] of raw) text = text.replace(JSON.stringify(key), replacement)
  return {
    bytes: encoder.encode(text),
    contentType: "application/json",
    mutations: count === 0 ? ["valid shape"] : mutations
  }
}

/** A body for a route that takes no JSON: text, a form, a multipart upload, all of them doubtful. */
export const otherBody = (dice: Dice, contentType: string): WireBody => {
  const text = dice.pick([
    "",
    "a=1&a=2",
    "format=mermaid&text=graph%20TD%3BA--%3EB",
    "--x\r\nContent-Disposition: form-data; name=\"format\"\r\n\r\nrasa\r\n--x--\r\n",
    "--x\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"a.zip\"\r\n\r\nPK\u0003\u0004garbage\r\n--x--\r\n",
    "\u0000\ud800",
    "x".repeat(2_000_000),
    ...HOSTILE_INPUTS
  ])
  const type = contentType.startsWith("multipart/") ? "multipart/form-data; boundary=x" : contentType
  return { bytes: encoder.encode(text), contentType: type, mutations: [`${type} body`] }
}
