/**
 * JSONata's regular expressions on `UserPattern` (its `RegexEngine` option).
 * JSONata parses a regex literal (`/\d+/i`) into a native `RegExp`, which it
 * never runs: at each evaluation of the literal it builds
 * `new RegexEngine(literal)`, then for `$match`, `$replace`, `$split` and
 * `$contains` sets `lastIndex` and calls `exec`, reading `index`, `[0]` and
 * the groups of each result and `lastIndex` after it (jsonata 2.x,
 * `evaluateRegex`). That is the subset of `RegExp` this class keeps: the
 * constructor, `lastIndex`, `exec` (and `test`), `source` and `flags`.
 *
 * Each search is first charged its work (program size times the length of
 * text it may scan) through `charge`, which may refuse it by throwing, so an
 * expression's regexes count against its evaluation steps; a pattern Parley
 * cannot run throws when the literal is evaluated. Compiled patterns are kept
 * (a literal in a loop is built again at each turn of the loop).
 */
import { Either } from "effect"
import { compileUserPattern, MAX_MATCH_WORK, type UserPattern } from "./UserPattern.js"

/** What JSONata constructs; `RegExpConstructor` is the type its options declare. */
export type RegexEngine = RegExpConstructor

/** Told the work of a search before it runs; throws to refuse it. */
export type ChargeWork = (work: number) => void

const refuseOverMaximum: ChargeWork = (work) => {
  if (work > MAX_MATCH_WORK) throw new Error("the text is too long for this pattern")
}

const CACHE_SIZE = 256
const compiledPatterns = new Map<string, UserPattern>()

const compiled = (source: string, flags: string): UserPattern => {
  const key = `${flags}/${source}`
  const known = compiledPatterns.get(key)
  if (known !== undefined) return known
  const pattern = compileUserPattern(source, flags)
  if (Either.isLeft(pattern)) throw new Error(`The pattern /${source}/ cannot be used: ${pattern.left}`)
  if (compiledPatterns.size >= CACHE_SIZE) compiledPatterns.delete(compiledPatterns.keys().next().value!)
  compiledPatterns.set(key, pattern.right)
  return pattern.right
}

/** A `RegexEngine` whose searches are charged to `charge` (by default: refused over `MAX_MATCH_WORK`). */
export const regexEngine = (charge: ChargeWork = refuseOverMaximum): RegexEngine => {
  class PatternRegExp {
    readonly source: string
    readonly flags: string
    readonly global: boolean
    lastIndex = 0
    private readonly pattern: UserPattern

    constructor(pattern: string | RegExp, flags?: string) {
      this.source = typeof pattern === "string" ? pattern : pattern.source
      this.flags = flags ?? (typeof pattern === "string" ? "" : pattern.flags)
      this.global = this.flags.includes("g")
      this.pattern = compiled(this.source, this.flags.replace(/g/g, ""))
    }

    /** As `RegExp.prototype.exec`: from `lastIndex` when global, moving it past the match. */
    exec(text: string): RegExpExecArray | null {
      const from = this.global ? this.lastIndex : 0
      if (from > text.length) {
        this.lastIndex = 0
        return null
      }
      charge(this.pattern.size * (text.length - from + 1))
      const found = this.pattern.search(text, from)
      if (found === undefined) {
        if (this.global) this.lastIndex = 0
        return null
      }
      if (this.global) this.lastIndex = found.end
      const result = Object.assign([found.match, ...found.groups], {
        index: found.start,
        input: text,
        groups: found.named === undefined ? undefined : { ...found.named }
      })
      return result as RegExpExecArray
    }

    test(text: string): boolean {
      return this.exec(text) !== null
    }

    toString(): string {
      return `/${this.source}/${this.flags}`
    }
  }
  return PatternRegExp as unknown as RegexEngine
}
