/**
 * Every expression and template placeholder of a graph compiled once, with
 * the project's bounded JSONata compiler (`compileExpression`: RE2 for regex
 * literals, never `eval`), under the graph's check budget (`CheckBudget`).
 * The syntax problems are errors (`expression-syntax`, `template-syntax`): an
 * expression that does not compile fails every run that reaches it. A `}}`
 * outside any placeholder is only a warning: it is printed as written. A
 * template reports its first broken placeholder and how many others are
 * broken, so one hostile template cannot produce thousands of problems.
 * What compiles is kept with what it reads, for the checks of variables and
 * types.
 */
import { Either } from "effect"
import { compileExpression } from "../../runtime/engine/Expressions.js"
import type { WorkflowNodeId } from "../Ids.js"
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { type CheckBudget, compileWork, EXPRESSION_WORK_LIMIT } from "./CheckBudget.js"
import { type Reference, referencesOf } from "./ExpressionReads.js"
import { fieldsOf, type NodeField } from "./NodeFields.js"
import { clipped, error, warning } from "./Problems.js"
import { scanTemplate } from "./TemplatePlaceholders.js"

/** An expression that compiled: its syntax tree and the document fields it reads. */
export interface Compiled {
  readonly ast: unknown
  readonly references: ReadonlyArray<Reference>
}

/** A field of a node and what compiled of it (a template's placeholders, or the one expression). */
export interface CompiledField extends NodeField {
  readonly nodeId: WorkflowNodeId
  readonly compiled: ReadonlyArray<Compiled>
}

export interface CompiledFields {
  readonly problems: ReadonlyArray<PublishProblem>
  /** Per node id, its fields in order. */
  readonly fields: ReadonlyMap<string, ReadonlyArray<CompiledField>>
}

/** Why a text gave no syntax tree: it is not valid (the reason), or the graph's budget was spent first. */
type Refusal = { readonly invalid: string } | { readonly unchecked: true }

type Outcome = Either.Either<Compiled, Refusal>

const UNCHECKED: Refusal = { unchecked: true }

const compileOne = (source: string): Outcome =>
  Either.match(compileExpression(source).compiled, {
    onLeft: (failure) =>
      Either.left({
        invalid: failure.message.includes("call stack") ? "it nests too deeply" : clipped(failure.message)
      }),
    onRight: (expression) => {
      const ast: unknown = expression.ast()
      return Either.right({ ast, references: referencesOf(ast) })
    }
  })

/** Compiles texts once each (the same text in many nodes costs once), spending the budget. */
const compiler = (budget: CheckBudget) => {
  const cache = new Map<string, Outcome>()
  return (source: string): Outcome => {
    const known = cache.get(source)
    if (known !== undefined) return known
    const work = compileWork(source)
    // Not cached: a later, smaller text may still fit.
    if (work <= EXPRESSION_WORK_LIMIT && work > budget.remaining) return Either.left(UNCHECKED)
    const outcome: Outcome = work > EXPRESSION_WORK_LIMIT
      ? Either.left({ invalid: "it is too large to check; shorten its paths or split it over several nodes" })
      : compileOne(source)
    if (work <= EXPRESSION_WORK_LIMIT) budget.remaining -= work
    cache.set(source, outcome)
    return outcome
  }
}

const NOT_CHECKED = "was not checked: the graph's expressions together are too large to check; shorten them"

interface FieldResult {
  readonly compiled: ReadonlyArray<Compiled>
  readonly problems: ReadonlyArray<PublishProblem>
}

const expressionField = (node: WorkflowNode, field: NodeField, compile: (source: string) => Outcome): FieldResult => {
  const place = { nodeId: node.id, field: field.field }
  const what = `The expression in ${field.field} of node ${node.id}`
  return Either.match(compile(field.source), {
    onRight: (compiled) => ({ compiled: [compiled], problems: [] }),
    onLeft: (refusal) => ({
      compiled: [],
      problems: [
        error(
          "expression-syntax",
          "invalid" in refusal ? `${what} is not valid JSONata: ${refusal.invalid}` : `${what} ${NOT_CHECKED}`,
          place
        )
      ]
    })
  })
}

const templateField = (node: WorkflowNode, field: NodeField, compile: (source: string) => Outcome): FieldResult => {
  const place = { nodeId: node.id, field: field.field }
  const where = `of ${field.field} in node ${node.id}`
  const scan = scanTemplate(field.source)
  const compiled: Array<Compiled> = []
  const broken: Array<{ readonly at: number; readonly reason: string }> = []
  let unchecked = false
  for (const placeholder of scan.placeholders) {
    if (placeholder.source.trim() === "") {
      broken.push({ at: placeholder.at, reason: "is empty" })
      continue
    }
    const outcome = compile(placeholder.source)
    if (Either.isRight(outcome)) {
      compiled.push(outcome.right)
    } else if ("invalid" in outcome.left) {
      broken.push({ at: placeholder.at, reason: `is not valid JSONata: ${outcome.left.invalid}` })
    } else {
      unchecked = true
      break
    }
  }
  const problems: Array<PublishProblem> = []
  if (scan.unclosedAt !== undefined) {
    problems.push(
      error(
        "template-syntax",
        `The placeholder opened at character ${scan.unclosedAt} ${where} never closes with }}`,
        place
      )
    )
  }
  const [first] = broken
  if (first !== undefined) {
    const others = broken.length - 1
    const more = others > 0 ? ` (and ${others} more broken placeholder${others > 1 ? "s" : ""})` : ""
    problems.push(
      error("template-syntax", `The placeholder at character ${first.at} ${where} ${first.reason}${more}`, place)
    )
  }
  if (unchecked) {
    problems.push(error("template-syntax", `The template in ${field.field} of node ${node.id} ${NOT_CHECKED}`, place))
  }
  if (scan.strayCloseAt !== undefined) {
    problems.push(
      warning(
        "template-syntax",
        `The }} at character ${scan.strayCloseAt} ${where} closes no placeholder; it is printed as written`,
        place
      )
    )
  }
  return { compiled, problems }
}

/** Compiles every field of every node, in graph order. */
export const compileFields = (nodes: ReadonlyArray<WorkflowNode>, budget: CheckBudget): CompiledFields => {
  const compile = compiler(budget)
  const problems: Array<PublishProblem> = []
  const fields = new Map<string, ReadonlyArray<CompiledField>>()
  for (const node of nodes) {
    fields.set(
      node.id,
      fieldsOf(node).map((field) => {
        const result = field.kind === "expression"
          ? expressionField(node, field, compile)
          : templateField(node, field, compile)
        problems.push(...result.problems)
        return { ...field, nodeId: node.id, compiled: result.compiled }
      })
    )
  }
  return { problems, fields }
}
