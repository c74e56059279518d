/**
 * A flow compiled for running: its nodes and edges indexed, its expressions
 * compiled once and its patterns once each when first used, its intents'
 * classifier built, the locale's formats read. Compiling refuses only a flow that cannot run at all (no
 * start node, several, or a start without a `next` edge to an existing
 * node); everything else a draft may get wrong is the analysis's to report
 * and the engine's to survive (see `FlowEngine`). Where the graph repeats
 * itself (two nodes with one id, two edges for one outcome) the first wins.
 */
import { Either } from "effect"
import { startOf } from "../../assistants/analysis/StartFindings.js"
import type { Subflow } from "../../assistants/Flow.js"
import type { EdgeRoute, FlowEdge } from "../../assistants/FlowEdge.js"
import type { Finding } from "../../assistants/FlowFinding.js"
import type { FlowNodeId } from "../../assistants/FlowIds.js"
import type { FlowNode } from "../../assistants/FlowNode.js"
import type { Slot } from "../../assistants/Intent.js"
import { lazyIntentClassifier } from "../../nlu/IntentClassifier.js"
import { compileUserPattern, type UserPattern } from "../../patterns/UserPattern.js"
import type { Classifier } from "./Classifier.js"
import { type CompiledExpression, compileExpression } from "./Expressions.js"
import { type LocaleFormats, localeFormats } from "./LocaleFormats.js"

/** An intent as the engine needs it: its examples for the classifier and its slots for extraction. */
export interface EngineIntent {
  readonly name: string
  readonly utterances: ReadonlyArray<string>
  readonly slots: ReadonlyArray<typeof Slot.Type>
}

/** A compiled flow; only the engine reads its members. */
export interface FlowProgram {
  readonly start: FlowNode
  readonly node: (id: string) => FlowNode | undefined
  /** The target of the edge that takes `route` out of `source`. */
  readonly target: (source: FlowNodeId, route: EdgeRoute) => FlowNodeId | undefined
  readonly subflowEntry: (id: string) => FlowNodeId | undefined
  readonly expression: (source: string) => CompiledExpression
  readonly pattern: (source: string) => Either.Either<UserPattern, string>
  readonly intent: (name: string) => EngineIntent | undefined
  readonly classifier: Classifier
  /** The Assistant's own threshold; null: the classifier's automatic one. */
  readonly nluThreshold: number | null
  readonly formats: LocaleFormats
}

/** What `compile` reads: a draft's or a snapshot's graph, intents and settings. */
export interface ProgramInput {
  readonly nodes: ReadonlyArray<FlowNode>
  readonly edges: ReadonlyArray<FlowEdge>
  readonly subflows: ReadonlyArray<Subflow>
  readonly intents: ReadonlyArray<EngineIntent>
  /** The Assistant's own threshold; null: the classifier's automatic one (`Classifier.threshold`). */
  readonly nluThreshold: number | null
  readonly locale: string
  /**
   * Replaces the built-in classifier (`lazyIntentClassifier`: the `IntentModel`
   * trained on `intents` when a router first reads a message).
   */
  readonly classifier?: Classifier
}

const routeKey = (source: string, route: EdgeRoute): string => {
  switch (route.kind) {
    case "option":
      return `${source} option ${route.option}`
    case "intent":
      return `${source} intent ${route.intent}`
    case "case":
      return `${source} case ${route.case}`
    default:
      return `${source} ${route.kind}`
  }
}

const indexBy = <A, K>(items: ReadonlyArray<A>, key: (item: A) => K): Map<K, A> => {
  const index = new Map<K, A>()
  for (const item of items) if (!index.has(key(item))) index.set(key(item), item)
  return index
}

const cached = <A>(build: (source: string) => A, sources: Iterable<string>) => {
  const cache = new Map<string, A>()
  for (const source of sources) if (!cache.has(source)) cache.set(source, build(source))
  return (source: string): A => cache.get(source) ?? build(source)
}

// Patterns compile when first used: compiling is linear in a pattern's
// program, and a flow of many questions should not pay for all of them at once.
const onFirstUse = <A>(build: (source: string) => A) => {
  const cache = new Map<string, A>()
  return (source: string): A => {
    const known = cache.get(source)
    if (known !== undefined) return known
    const built = build(source)
    cache.set(source, built)
    return built
  }
}

/** Compiles a flow once; `Left` with error findings when it cannot run at all. */
export const compile = (input: ProgramInput): Either.Either<FlowProgram, ReadonlyArray<Finding>> => {
  const nodes = indexBy(input.nodes, (node): string => node.id)
  const edges = indexBy(input.edges, (edge) => routeKey(edge.source, edge))
  const { findings, start } = startOf(input.nodes, input.edges)
  if (start === undefined || findings.length > 0) return Either.left(findings)
  const subflows = indexBy(input.subflows, (subflow): string => subflow.id)
  const expressions = input.nodes.flatMap((node) =>
    node.type === "condition"
      ? node.data.cases.map((c) => c.expression)
      : node.type === "set-variable" && "expression" in node.data
      ? [node.data.expression]
      : []
  )
  const intents = indexBy(input.intents, (intent) => intent.name)
  return Either.right({
    start,
    node: (id) => nodes.get(id),
    target: (source, route) => edges.get(routeKey(source, route))?.target,
    subflowEntry: (id) => subflows.get(id)?.entryNodeId,
    expression: cached(compileExpression, expressions),
    pattern: onFirstUse((source) => compileUserPattern(source)),
    intent: (name) => intents.get(name),
    classifier: input.classifier ?? lazyIntentClassifier(input.intents),
    nluThreshold: input.nluThreshold,
    formats: localeFormats(input.locale)
  })
}
