/**
 * Regular expressions written by flow authors (question patterns, regex slot
 * entities, JSONata regex literals) run on what users type, so they are
 * guarded against catastrophic backtracking in two ways. A pattern is
 * refused when a repeated group holds something that can itself match a
 * varying length (`(a+)+`, `(\w*\s?)*`, `(a|aa)+`: star height above one, the
 * shape of nearly every ReDoS), where "repeated" means `*`, `+`, `{n,}` or an
 * upper bound above 10. And the text a pattern may run on is capped in
 * length, which keeps merely polynomial patterns (`\d+\d+\d+x`) cheap. This
 * is a heuristic, not a proof: it refuses a few harmless patterns
 * (`(cat|dog)+`) and keeps the common ones (`^[A-Z]{2}-\d{5}$`,
 * `(\d{1,3}\.){3}\d{1,3}`, `(?:yes|no)`).
 */
import { Either } from "effect"

/** The longest text a question's or a slot's pattern runs on. */
export const MAX_PATTERN_INPUT = 500

/** The longest text a JSONata regex literal runs on (a whole user message). */
export const MAX_EXPRESSION_PATTERN_INPUT = 4000

interface Quantifier {
  readonly length: number
  /** Matches a varying number of times (`?`, `*`, `+`, `{1,3}`). */
  readonly varying: boolean
  /** Repeats without a small bound (`*`, `+`, `{2,}`, `{1,50}`). */
  readonly repeating: boolean
}

const quantifierAt = (pattern: string, index: number): Quantifier | undefined => {
  const char = pattern[index]
  if (char === "?") return { length: 1, varying: true, repeating: false }
  if (char === "*" || char === "+") return { length: 1, varying: true, repeating: true }
  if (char !== "{") return undefined
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index))
  if (braces === null) return undefined
  const min = Number(braces[1])
  const max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3])
  return { length: braces[0].length, varying: max !== min, repeating: max > 10 }
}

/** Why the guard refuses `pattern`, or `undefined` when it accepts it. */
export const unsafePattern = (pattern: string): string | undefined => {
  // For each open group: does it hold a varying quantifier or an alternation?
  const groups: Array<boolean> = [false]
  let closed = false
  for (let index = 0; index < pattern.length;) {
    const char = pattern[index]!
    const quantifier = quantifierAt(pattern, index)
    if (quantifier !== undefined) {
      if (closed && quantifier.repeating) return "a repeated group holds a part of varying length"
      if (quantifier.varying) groups[groups.length - 1] = true
      index += quantifier.length + (pattern[index + quantifier.length] === "?" ? 1 : 0)
      closed = false
      continue
    }
    closed = false
    if (char === "\\") {
      index += 2
    } else if (char === "[") {
      index += 1
      while (index < pattern.length && pattern[index] !== "]") index += pattern[index] === "\\" ? 2 : 1
      index += 1
    } else if (char === "(") {
      groups.push(false)
      const prefix = /^\((\?(?:[:=!]|<[=!]|<[A-Za-z_$][\w$]*>))?/.exec(pattern.slice(index))!
      index += prefix[0].length
    } else if (char === ")") {
      const inner = groups.length > 1 ? groups.pop()! : false
      groups[groups.length - 1] = groups[groups.length - 1]! || inner
      closed = inner
      index += 1
    } else {
      if (char === "|") groups[groups.length - 1] = true
      index += 1
    }
  }
  return undefined
}

/** Compiles an author's pattern (ECMAScript syntax), or says why it cannot run. */
export const compilePattern = (pattern: string, flags = ""): Either.Either<RegExp, string> => {
  const unsafe = unsafePattern(pattern)
  if (unsafe !== undefined) return Either.left(unsafe)
  try {
    return Either.right(new RegExp(pattern, flags))
  } catch (error) {
    return Either.left(error instanceof Error ? error.message : "not a valid pattern")
  }
}

/** Whether `pattern` matches all of `text` (and `text` is within the length cap). */
export const matchesWhole = (pattern: RegExp, text: string): boolean => {
  if (text.length > MAX_PATTERN_INPUT) return false
  const whole = new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ""))
  return whole.test(text)
}

/** The first match of `pattern` in `text` (its first group when it has one), within the length cap. */
export const findMatch = (pattern: RegExp, text: string): string | undefined => {
  const match = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "")).exec(text.slice(0, MAX_PATTERN_INPUT))
  if (match === null) return undefined
  return match.length > 1 && match[1] !== undefined ? match[1] : match[0]
}

/**
 * The `RegExp` JSONata builds its regex literals with (`RegexEngine`): it
 * refuses unsafe patterns and texts over a larger cap (expressions read
 * whole user messages, at most 4,000 characters), failing the expression.
 */
export class GuardedRegExp extends RegExp {
  constructor(pattern: string | RegExp, flags?: string) {
    const source = typeof pattern === "string" ? pattern : pattern.source
    const unsafe = unsafePattern(source)
    if (unsafe !== undefined) throw new Error(`refused pattern /${source}/: ${unsafe}`)
    super(pattern, flags)
  }

  override exec(text: string): RegExpExecArray | null {
    if (text.length > MAX_EXPRESSION_PATTERN_INPUT) throw new Error("text too long for a pattern")
    return super.exec(text)
  }
}
