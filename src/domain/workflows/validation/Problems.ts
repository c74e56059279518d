/**
 * How validate-publish writes a problem and in what order it answers them:
 * problems of the whole graph first (no trigger, no output), then by the
 * node's place in the graph, then by code (the order of `ProblemCode`:
 * shape, reachability, expressions, references), and within one node and
 * code in the order the checks met them (the node's fields in order), so the
 * same draft always gives the same list.
 */
import type { Severity } from "../../Severity.js"
import type { WorkflowEdgeId, WorkflowNodeId } from "../Ids.js"
import { type ProblemCode, ProblemCode as ProblemCodes, type PublishProblem } from "../PublishProblem.js"

/** Where a problem lies: a node, an edge, and the dotted path of a field inside the node. */
export interface Place {
  readonly nodeId?: WorkflowNodeId | undefined
  readonly edgeId?: WorkflowEdgeId | undefined
  readonly field?: string | undefined
}

const make = (severity: Severity, code: ProblemCode, message: string, place: Place): PublishProblem => ({
  severity,
  code,
  message,
  ...(place.nodeId === undefined ? {} : { nodeId: place.nodeId }),
  ...(place.edgeId === undefined ? {} : { edgeId: place.edgeId }),
  ...(place.field === undefined ? {} : { field: place.field })
})

/** A problem that blocks publishing. */
export const error = (code: ProblemCode, message: string, place: Place = {}): PublishProblem =>
  make("error", code, message, place)

/** A problem that is reported and does not block publishing. */
export const warning = (code: ProblemCode, message: string, place: Place = {}): PublishProblem =>
  make("warning", code, message, place)

const codeRank = new Map<string, number>(ProblemCodes.literals.map((code, index) => [code, index]))

/** Graph-wide problems first, then by node order, then by code; stable otherwise. */
export const ordered = (
  problems: ReadonlyArray<PublishProblem>,
  nodeOrder: ReadonlyMap<string, number>
): ReadonlyArray<PublishProblem> => {
  const rank = (problem: PublishProblem) => problem.nodeId === undefined ? -1 : nodeOrder.get(problem.nodeId) ?? -1
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) =>
      rank(a.problem) - rank(b.problem) ||
      codeRank.get(a.problem.code)! - codeRank.get(b.problem.code)! ||
      a.index - b.index
    )
    .map(({ problem }) => problem)
}

/** "a", "a and b", "a, b and c", shortened after `limit` items. */
export const listed = (items: ReadonlyArray<string>, limit = 10): string => {
  const shown = items.length > limit ? [...items.slice(0, limit), `${items.length - limit} more`] : items
  return shown.length <= 1 ? shown.join("") : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`
}

/** Text from the draft or a library, made printable and cut short so a hostile value cannot swell the answer. */
export const clipped = (text: string, limit = 200): string => {
  const shown = text.length > limit ? `${text.slice(0, limit)}…` : text

  return shown.replace(/[\u0000-\u001f\u007f]/g, "\uFFFD")
}

/** Text from the draft quoted in a message, cut short. */
export const quoted = (text: string, limit = 60): string => `\`${clipped(text, limit)}\``
