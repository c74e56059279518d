/**
 * Flow expressions (JSONata over `{ vars, input }`), compiled once per
 * program and evaluated so that they can neither hang nor tell two runs
 * apart. Bounds: 50,000 evaluation steps per expression, and 200,000 for all
 * the expressions of one engine step together (a budget: once spent, every
 * further expression of the step fails at once), counted rather than timed
 * so the limits fall at the same place on every machine (50,000 steps take
 * about a tenth of a second); a nesting depth of 500; sequences of at most
 * 10,000 items; regex literals on RE2 (see `UserPattern`), each search
 * charged to the steps by its work (one step per `WORK_PER_STEP` of program
 * size times text length), and a literal Parley cannot run is a compile
 * failure; and a one-second clock as a last resort that no expression
 * within its steps should reach.
 * Determinism: `$now()` and `$millis()` read Effect's `Clock` (one instant
 * per step), and `$random()` / `$shuffle()` draw from a generator seeded by
 * the expression and the document it reads, so the same conversation takes
 * the same branch. Anything that goes wrong (a syntax error, an undefined
 * function, a bound reached) is an `ExpressionFailure`, never a thrown error.
 * The same bounds serve any document an expression reads (`evaluateOver`):
 * the Assistants' `{ vars, input }` and a workflow's
 * `{ input, vars, nodes, item, index }`.
 */
import { Effect, Either } from "effect"
import jsonata from "jsonata"
import type { Variables } from "../../assistants/Variable.js"
import { canonicalJson } from "../../CanonicalJson.js"
import type { JsonValue } from "../../Json.js"
import { regexEngine } from "../../patterns/PatternRegExp.js"
import { patternRefusal } from "../../patterns/UserPattern.js"

/** The most evaluation steps one expression may take. */
export const EXPRESSION_STEP_LIMIT = 50_000

/** The most evaluation steps all the expressions of one engine step may take together. */
export const STEP_EXPRESSION_BUDGET = 200_000

/** What is left of an engine step's evaluation steps; shared by the step's expressions. */
export interface ExpressionBudget {
  remaining: number
}

/**
 * The work of a regex search (program size times characters) that costs one
 * evaluation step: at the measured worst (25 to 40 ns per unit of work) 50
 * units take about as long as a step (2 µs), so one expression's regexes
 * scan at most 2.5 million units (a 100-instruction pattern over 25,000
 * characters), and an engine step's at most 10 million.
 */
export const WORK_PER_STEP = 50

/** A fresh budget for one engine step. */
export const makeBudget = (): ExpressionBudget => ({ remaining: STEP_EXPRESSION_BUDGET })

/** What an evaluation reads besides the scope: the step's instant and its budget. */
export interface EvaluationContext {
  readonly nowMillis: number
  readonly budget: ExpressionBudget
}

const OPTIONS = {
  stack: 500,
  sequence: 10_000,
  timeout: 1_000,
  // Replaced at each evaluation by an engine that charges the evaluation's steps (see `countStep`).
  RegexEngine: regexEngine()
}

/** The last user message as expressions read it (`input.text`, `input.intent`...); fields are `null` when unknown. */
export interface InputDocument {
  readonly text: string | null
  readonly payload: string | null
  readonly intent: string | null
  readonly confidence: number | null
  readonly slots: { readonly [name: string]: JsonValue } | null
}

/** What every expression reads. */
export interface ExpressionScope {
  readonly vars: Variables
  readonly input: InputDocument
}

/** Why an expression gave no value. */
export interface ExpressionFailure {
  readonly message: string
}

/** An expression compiled once per program; a syntax error is kept and reported at each evaluation. */
export interface CompiledExpression {
  readonly source: string
  readonly compiled: Either.Either<jsonata.Expression, ExpressionFailure>
}

const failure = (error: unknown): ExpressionFailure => ({
  message: typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)
})

interface Counter {
  steps: number
  readonly budget: ExpressionBudget
}

// JSONata's environments are per evaluation; the document an evaluation reads
// (bound as `$` before anything runs) finds its budget, and the first step of
// the evaluation keeps the counter on the evaluation's base environment.
const budgets = new WeakMap<object, ExpressionBudget>()
const COUNTER = Symbol("parley.counter")

type Environment = {
  readonly base: {
    [COUNTER]?: Counter
    RegexEngine?: RegExpConstructor
    readonly lookup: (name: string) => unknown
  }
}

const spend = (counter: Counter, steps: number) => {
  counter.steps += steps
  counter.budget.remaining -= steps
  if (counter.steps > EXPRESSION_STEP_LIMIT) throw { message: `more than ${EXPRESSION_STEP_LIMIT} evaluation steps` }
  if (counter.budget.remaining < 0) throw { message: "the step's expressions have used up their evaluation steps" }
}

const countStep = (_expr: unknown, _input: unknown, environment: Environment) => {
  const base = environment.base
  let counter = base[COUNTER]
  if (counter === undefined) {
    const created: Counter = {
      steps: 0,
      budget: budgets.get(base.lookup("$") as object) ?? { remaining: EXPRESSION_STEP_LIMIT }
    }
    counter = base[COUNTER] = created
    // JSONata builds its regexes from the evaluation's base environment, set
    // before the first step: from here on they charge this evaluation.
    base.RegexEngine = regexEngine((work) => spend(created, Math.ceil(work / WORK_PER_STEP)))
  }
  spend(counter, 1)
}

interface AstNode {
  readonly type?: unknown
  readonly value?: unknown
}

/** The regex literals of a parsed expression (JSONata has no other way to make one). */
const regexLiterals = (ast: unknown): ReadonlyArray<RegExp> => {
  const found: Array<RegExp> = []
  const pending: Array<unknown> = [ast]
  const seen = new Set<object>()
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== "object" || node === null || seen.has(node)) continue
    seen.add(node)
    if ((node as AstNode).type === "regex" && (node as AstNode).value instanceof RegExp) {
      found.push((node as AstNode).value as RegExp)
    } else {
      pending.push(...Object.values(node))
    }
  }
  return found
}

/** Why a regex literal of `expression` cannot run, or `undefined` when they all can. */
const refusedLiteral = (expression: jsonata.Expression): string | undefined => {
  for (const literal of regexLiterals(expression.ast())) {
    const refusal = patternRefusal(literal.source, literal.flags.replace(/g/g, ""))
    if (refusal !== undefined) return `the pattern /${literal.source}/ cannot be used: ${refusal}`
  }
  return undefined
}

/** Compiles one expression; never throws. */
export const compileExpression = (source: string): CompiledExpression => {
  try {
    const expression = jsonata(source, OPTIONS)
    expression.assign(Symbol.for("jsonata.__evaluate_entry") as unknown as string, countStep)
    const refusal = refusedLiteral(expression)
    if (refusal !== undefined) return { source, compiled: Either.left({ message: refusal }) }
    return { source, compiled: Either.right(expression) }
  } catch (error) {
    return { source, compiled: Either.left(failure(error)) }
  }
}

const formatMillis = jsonata("$fromMillis($t, $p, $z)")

/** A small seeded generator (FNV-1a seed, mulberry32 draws). */
const seededRandom = (seedText: () => string): () => number => {
  let state: number | undefined
  return () => {
    if (state === undefined) {
      state = 0x811c9dc5
      const text = seedText()
      for (let index = 0; index < text.length; index++) state = Math.imul(state ^ text.charCodeAt(index), 0x01000193)
    }
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const builtins = (source: string, document: object, nowMillis: number) => {
  const random = seededRandom(() => `${source}\u0000${canonicalJson(document)}`)
  return {
    now: (picture?: string, timezone?: string) =>
      formatMillis.evaluate(null, { t: nowMillis, p: picture, z: timezone }),
    millis: () => nowMillis,
    random,
    shuffle: (items: unknown) => {
      if (!Array.isArray(items)) return items
      const shuffled = [...items]
      for (let index = shuffled.length - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1))
        const item = shuffled[index]
        shuffled[index] = shuffled[other]
        shuffled[other] = item
      }
      return shuffled
    }
  }
}

/**
 * Evaluates a compiled expression over any JSON-like document (its members
 * are the names the expression reads); a failure is a value, never an error
 * of the effect. `$random()` is seeded by the expression and the document.
 */
export const evaluateOver = (
  expression: CompiledExpression,
  document: { readonly [name: string]: unknown },
  context: EvaluationContext
): Effect.Effect<Either.Either<unknown, ExpressionFailure>> =>
  Either.match(expression.compiled, {
    onLeft: (syntax) => Effect.succeed(Either.left(syntax)),
    onRight: (compiled) =>
      Effect.suspend(() => {
        // A document of its own, so that this evaluation finds this budget.
        const own = { ...document }
        budgets.set(own, context.budget)
        return Effect.tryPromise({
          try: () => compiled.evaluate(own, builtins(expression.source, own, context.nowMillis)),
          catch: failure
        })
      }).pipe(Effect.either)
  })

/** Evaluates a compiled expression over the scope; a failure is a value, never an error of the effect. */
export const evaluateExpression = (
  expression: CompiledExpression,
  scope: ExpressionScope,
  context: EvaluationContext
): Effect.Effect<Either.Either<unknown, ExpressionFailure>> =>
  evaluateOver(expression, { vars: scope.vars, input: scope.input }, context)
