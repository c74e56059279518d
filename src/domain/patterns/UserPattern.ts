/**
 * Every regular expression an author writes (a question's pattern, a regex
 * slot, a regex literal in a JSONata expression, a pattern an import brings)
 * is compiled here and runs on RE2 (`re2js`, a port of Go's `regexp`), whose
 * matching time is linear in the text: no pattern can backtrack, so no text
 * can stall a node, whatever the two are. What RE2 cannot run in linear time
 * (backreferences, lookahead, lookbehind, atomic groups) is refused with a
 * reason naming the feature.
 *
 * The syntax is RE2's, which is ECMAScript's for everything the two share;
 * ECMAScript-only spellings are translated first (`(?<name>...)`, `\u00e9`,
 * `\u{1F600}`, `[^]`, `\cX`), so the patterns authors wrote before stay
 * valid. Inline flags (`(?i)`, `(?m)`, `(?s)`, `(?i:...)`) work anywhere.
 * Text is matched by code point, so `.` takes an emoji whole; `(?i)` folds
 * case in every script (`é` matches `É`); `\w`, `\d`, `\s` and `\b` are ASCII
 * classes, as in ECMAScript; `\p{L}` (any letter) and `\p{Greek}` name
 * Unicode classes.
 *
 * Linear in the text is not yet cheap: matching costs up to about the
 * pattern's program size times the text's length (measured: 20 to 70 ns per
 * instruction and character in the worst case). Both are bounded: a pattern
 * compiles to at most `MAX_PROGRAM_SIZE` instructions (refused otherwise,
 * before compiling when a cheap estimate already says so, because compiling
 * is itself linear in the program), and one search does at most
 * `MAX_MATCH_WORK` of work (the largest pattern on the longest message).
 */
import { Either } from "effect"
import { RE2JS } from "re2js"

/** The most instructions a pattern may compile to (`[a-z]{0,400}` is about 800). */
export const MAX_PROGRAM_SIZE = 1_000

/**
 * The most work (program size times text length) one search may do: the
 * largest pattern on a message of 4,000 characters: 90 to 120 ms measured
 * for `(.*a){199}` (997 instructions) on a loaded 2-CPU machine, against
 * under a millisecond for common patterns. A search that would do more finds
 * nothing.
 */
export const MAX_MATCH_WORK = MAX_PROGRAM_SIZE * 4_000

/** One match: its text, its groups (`undefined` when a group took no part) and where it lies. */
export interface PatternMatch {
  readonly match: string
  readonly groups: ReadonlyArray<string | undefined>
  readonly named: { readonly [name: string]: string | undefined } | undefined
  readonly start: number
  readonly end: number
}

/** A pattern Parley can run, compiled once. */
export class UserPattern {
  /** @internal use `compileUserPattern` */
  constructor(
    /** As the author wrote it. */
    readonly source: string,
    /** The flags it was compiled with (`i`, `m`, `s`, `u`). */
    readonly flags: string,
    private readonly compiled: RE2JS
  ) {}

  /** Its program size: what a search costs per character of text. */
  get size(): number {
    return this.compiled.programSize()
  }

  /** The work a search over `text` may do (see `MAX_MATCH_WORK`). */
  workOn(text: string): number {
    return this.size * (text.length + 1)
  }

  /** Whether it matches all of `text` (never when the search would do more than `MAX_MATCH_WORK`). */
  matchesWhole(text: string): boolean {
    return this.workOn(text) <= MAX_MATCH_WORK && this.compiled.testExact(text)
  }

  /** The first match in `text` (its first group when that took part), within `MAX_MATCH_WORK`. */
  firstMatch(text: string): string | undefined {
    if (this.workOn(text) > MAX_MATCH_WORK) return undefined
    const found = this.search(text, 0)
    if (found === undefined) return undefined
    return found.groups[0] ?? found.match
  }

  /**
   * The leftmost match starting at or after `from` (`^` and `\b` still see
   * the text before `from`), with no work bound: callers bound it (JSONata
   * charges it to the expression's steps).
   */
  search(text: string, from: number): PatternMatch | undefined {
    const matcher = this.compiled.matcher(text)
    if (!matcher.find(from)) return undefined
    const groups: Array<string | undefined> = []
    for (let group = 1; group <= matcher.groupCount(); group++) groups.push(matcher.group(group) ?? undefined)
    const names = Object.entries(this.compiled.namedGroups())
    return {
      match: matcher.group(0) ?? "",
      groups,
      named: names.length === 0
        ? undefined
        : Object.fromEntries(names.map(([name, index]) => [name, groups[index - 1]])),
      start: matcher.start(0),
      end: matcher.end(0)
    }
  }
}

const FLAGS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  // Matching is always by code point: `u` asks for nothing more.
  u: 0
}

const LINEAR = "a feature Parley cannot run in linear time"

/** The first construct of `source` RE2 cannot run, named for the author; scanned before translating. */
const unsupportedFeature = (source: string): string | undefined => {
  let inClass = false
  for (let index = 0; index < source.length; index++) {
    const char = source[index]
    if (char === "\\") {
      const next = source[index + 1] ?? ""
      if (!inClass && next >= "1" && next <= "9") return `a backreference (\\${next})`
      if (!inClass && next === "k" && source[index + 2] === "<") return "a named backreference (\\k<...>)"
      index += 1
    } else if (inClass) {
      if (char === "]") inClass = false
    } else if (char === "[") {
      inClass = true
      // A `]` first in a class is a literal, not its end.
      if (source[index + 1] === "^") index += 1
      if (source[index + 1] === "]") index += 1
    } else if (char === "(" && source[index + 1] === "?") {
      const rest = source.slice(index + 2, index + 4)
      if (rest.startsWith("=")) return "a lookahead ((?=...))"
      if (rest.startsWith("!")) return "a negative lookahead ((?!...))"
      if (rest === "<=") return "a lookbehind ((?<=...))"
      if (rest === "<!") return "a negative lookbehind ((?<!...))"
      if (rest.startsWith(">")) return "an atomic group ((?>...))"
    }
  }
  return undefined
}

/** The repetition bounds of a `{n}`, `{n,}` or `{n,m}` at `index`, or `undefined` when the braces are a literal. */
const boundsAt = (source: string, index: number) => {
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24))
  if (braces === null) return undefined
  const min = Math.min(Number(braces[1]), 1_001)
  const max = braces[2] === undefined ? min : braces[3] === "" ? undefined : Math.min(Number(braces[3]), 1_001)
  return { min, max, length: braces[0].length }
}

/**
 * About how many instructions RE2 compiles `source` (RE2 syntax) to, without
 * compiling it: literals and classes one each, a group its parts and two,
 * `x{n,m}` n copies of x and m-n optional ones. An estimate (escapes and
 * folding may differ by a little), used only to refuse a pattern whose
 * compiling alone would take long (`a{1000}` repeated seventy times compiles
 * to 70,000 instructions in most of a second).
 */
const estimatedSize = (source: string): number => {
  // Per open group: the cost of its parts so far and of its last atom.
  const frames: Array<{ total: number; last: number }> = [{ total: 0, last: 0 }]
  const atom = (cost: number) => {
    const frame = frames[frames.length - 1]!
    frame.total += cost
    frame.last = cost
  }
  const repeat = (times: (cost: number) => number) => {
    const frame = frames[frames.length - 1]!
    const repeated = times(frame.last)
    frame.total += repeated - frame.last
    frame.last = repeated
  }
  for (let index = 0; index < source.length;) {
    const char = source[index]!
    if (char === "\\") {
      const next = source[index + 1] ?? ""
      const braced = (next === "p" || next === "P" || next === "x") && source[index + 2] === "{"
      index = braced ? Math.max(source.indexOf("}", index) + 1, index + 2) : index + 2
      atom(1)
    } else if (char === "[") {
      index += source[index + 1] === "^" ? 2 : 1
      if (source[index] === "]") index += 1
      while (index < source.length && source[index] !== "]") index += source[index] === "\\" ? 2 : 1
      index += 1
      atom(1)
    } else if (char === "(") {
      const flagsOnly = /^\(\?[imsU-]*\)/.exec(source.slice(index, index + 12))
      if (flagsOnly !== null) {
        index += flagsOnly[0].length
        continue
      }
      frames.push({ total: 0, last: 0 })
      const prefix = /^\(\?(?:P?<[^>]*>|[imsU-]*:)/.exec(source.slice(index, index + 40))
      index += prefix === null ? 1 : prefix[0].length
    } else if (char === ")") {
      const group = frames.length > 1 ? frames.pop()! : { total: 0, last: 0 }
      atom(group.total + 2)
      index += 1
    } else if (char === "|") {
      const frame = frames[frames.length - 1]!
      frame.total += 1
      frame.last = 0
      index += 1
    } else if (char === "*" || char === "+" || char === "?") {
      repeat((cost) => cost + 1)
      index += source[index + 1] === "?" ? 2 : 1
    } else if (char === "{" && boundsAt(source, index) !== undefined) {
      const { length, max, min } = boundsAt(source, index)!
      repeat((cost) => max === undefined ? (min + 1) * cost + 1 : max * cost + (max - min))
      index += length + (source[index + length] === "?" ? 1 : 0)
    } else {
      atom(1)
      index += 1
    }
  }
  return frames.reduce((sum, frame) => sum + frame.total, 0) + 2
}

const syntaxReason = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/^error parsing regexp: /, "")
}

/**
 * Compiles an author's pattern with optional flags (`i`, `m`, `s`, `u`), or
 * says why Parley cannot run it, in a clause that begins with "it".
 */
export const compileUserPattern = (source: string, flags = ""): Either.Either<UserPattern, string> => {
  let bits = 0
  for (const flag of flags) {
    const bit = FLAGS[flag]
    if (bit === undefined) return Either.left(`it uses the flag "${flag}", which Parley does not know (i, m, s, u)`)
    bits |= bit
  }
  const feature = unsupportedFeature(source)
  if (feature !== undefined) return Either.left(`it uses ${feature}, ${LINEAR}`)
  const translated = RE2JS.translateRegExp(source)
  const estimate = estimatedSize(translated)
  if (estimate > 2 * MAX_PROGRAM_SIZE) {
    return Either.left(
      `it is too large: it would compile to about ${estimate} instructions, at most ${MAX_PROGRAM_SIZE}`
    )
  }
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(translated, bits)
  } catch (error) {
    return Either.left(`it is not a valid pattern (${syntaxReason(error)})`)
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) {
    return Either.left(
      `it is too large: it compiles to ${compiled.programSize()} instructions, at most ${MAX_PROGRAM_SIZE}`
    )
  }
  return Either.right(new UserPattern(source, [...flags].sort().join(""), compiled))
}

/** Why Parley cannot run `source` with `flags`, or `undefined` when it can. */
export const patternRefusal = (source: string, flags = ""): string | undefined =>
  Either.match(compileUserPattern(source, flags), { onLeft: (reason) => reason, onRight: () => undefined })
