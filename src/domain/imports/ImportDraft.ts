/**
 * What a converter produces before it is checked: nodes, edges, sub-flows
 * and intents as plain data. `finishDraft` checks each against the flow's
 * schemas, drops (and reports) what does not fit, lays out nodes that came
 * without a position, and answers a well-formed graph or the problems that
 * left nothing usable.
 */
import { Either, ParseResult, Schema } from "effect"
import { FLOW_LIMITS, type Subflow, Subflow as SubflowSchema } from "../assistants/Flow.js"
import { FlowEdge } from "../assistants/FlowEdge.js"
import { FlowNode } from "../assistants/FlowNode.js"
import { checkFlowStructure } from "../assistants/FlowStructure.js"
import { IntentCreate } from "../assistants/Intent.js"
import { distinctUtterances } from "../assistants/Utterances.js"
import { excerpt, truncate } from "../Excerpt.js"
import { patternRefusal } from "../patterns/UserPattern.js"
import type { ImportReport, ImportWarning } from "./Import.js"
import { layoutPositions } from "./ImportLayout.js"
import { makeReportBuilder, type ReportBuilder, reportOf } from "./ImportReportBuilder.js"

type Location = NonNullable<ImportWarning["location"]>

export interface DraftNode {
  readonly id: string
  readonly type: string
  readonly label?: string | undefined
  readonly position?: { readonly x: number; readonly y: number } | undefined
  readonly subflow?: string | undefined
  readonly data: unknown
  readonly location?: Location | undefined
}

export interface DraftEdge {
  readonly id: string
  readonly source: string
  readonly target: string
  /** `{ kind, intent?, case?, option? }`. */
  readonly route: Readonly<Record<string, string>>
  readonly label?: string | undefined
  readonly location?: Location | undefined
}

export interface DraftIntent {
  readonly name: string
  readonly description?: string
  readonly utterances: ReadonlyArray<string>
  readonly slots?: ReadonlyArray<unknown>
}

export interface Draft {
  readonly nodes: ReadonlyArray<DraftNode>
  readonly edges: ReadonlyArray<DraftEdge>
  readonly subflows: ReadonlyArray<{ readonly id: string; readonly name: string; readonly entryNodeId: string }>
  readonly intents: ReadonlyArray<DraftIntent>
}

export type ImportedIntent = typeof IntentCreate.Type

/** A usable import: the graph, the intents, the report. */
export interface Mapped {
  readonly _tag: "Mapped"
  readonly flow: {
    readonly nodes: ReadonlyArray<FlowNode>
    readonly edges: ReadonlyArray<FlowEdge>
    readonly subflows: ReadonlyArray<Subflow>
  }
  readonly intents: ReadonlyArray<ImportedIntent>
  readonly report: ImportReport
}

/** Nothing usable was read. */
export interface Unreadable {
  readonly _tag: "Unreadable"
  readonly problems: ReadonlyArray<ImportWarning>
}

export type Conversion = Mapped | Unreadable

export const unreadable = (problems: ReadonlyArray<ImportWarning>): Unreadable => ({ _tag: "Unreadable", problems })

/** The first lines of a schema failure, short enough for a warning. */
export const schemaProblem = (error: ParseResult.ParseError): string => {
  const text = ParseResult.TreeFormatter.formatErrorSync(error)
  return excerpt(text.split("\n").slice(0, 6).join(" ").replace(/\s+/g, " "), 400)
}

const decodeNode = Schema.decodeUnknownEither(FlowNode)
const decodeEdge = Schema.decodeUnknownEither(FlowEdge)
const decodeIntent = Schema.decodeUnknownEither(IntentCreate)

/** A regex slot whose pattern Parley cannot run is left out and reported, rather than its whole intent. */
const runnableSlots = (intent: DraftIntent, slots: ReadonlyArray<unknown>, report: ReportBuilder) =>
  slots.filter((slot) => {
    const { entity, name } = (typeof slot === "object" && slot !== null ? slot : {}) as Record<string, any>
    if (entity?.kind !== "regex" || typeof entity.pattern !== "string") return true
    const refusal = patternRefusal(entity.pattern)
    if (refusal === undefined) return true
    report.warn(
      "unsupported-feature",
      `Intent ${intent.name}: the pattern of the slot ${name} cannot be used (${refusal}): the slot was left out`
    )
    return false
  })

const finishIntents = (intents: ReadonlyArray<DraftIntent>, report: ReportBuilder) => {
  const byName = new Map<string, ImportedIntent>()
  for (const intent of intents) {
    const utterances = distinctUtterances(
      intent.utterances.map((u) => u.trim()).filter((u) => u.length > 0).map((u) => truncate(u, 500))
    )
    if (utterances.length > 10_000) {
      report.warn("truncated", `Intent ${intent.name}: ${utterances.length} examples, the first 10,000 kept`)
    }
    const slots = runnableSlots(intent, (intent.slots ?? []).slice(0, 50), report)
    if ((intent.slots ?? []).length > 50) report.warn("truncated", `Intent ${intent.name}: only 50 slots kept`)
    const decoded = decodeIntent({
      name: intent.name,
      description: truncate(intent.description ?? "", 1000),
      utterances: utterances.slice(0, 10_000),
      slots
    })
    if (Either.isLeft(decoded)) {
      report.warn("unsupported-element", `Intent ${intent.name} left out: ${schemaProblem(decoded.left)}`)
      report.skip()
      continue
    }
    const existing = byName.get(decoded.right.name)
    if (existing === undefined) {
      byName.set(decoded.right.name, decoded.right)
    } else {
      report.warn("duplicate-intent", `Intent ${intent.name} appears more than once: its examples were merged`)
      const slotNames = new Set(existing.slots.map((slot) => slot.name))
      byName.set(existing.name, {
        ...existing,
        utterances: distinctUtterances([...existing.utterances, ...decoded.right.utterances]).slice(0, 10_000),
        slots: [...existing.slots, ...decoded.right.slots.filter((slot) => !slotNames.has(slot.name))].slice(0, 50)
      })
    }
  }
  const all = [...byName.values()]
  if (all.length > 1000) report.warn("truncated", `${all.length} intents: the first 1,000 kept`)
  const kept = all.slice(0, 1000)
  for (const intent of kept) {
    if (intent.utterances.length === 0) {
      report.warn("intent-without-utterances", `Intent ${intent.name} has no example utterances`)
    }
  }
  return kept
}

/** Check a draft and make it a flow (or say why nothing could be read). */
export const finishDraft = (draft: Draft, report: ReportBuilder = makeReportBuilder()): Conversion => {
  const subflowIds = new Set(draft.subflows.map((subflow) => subflow.id))
  const nodes: Array<FlowNode> = []
  const withoutPosition = new Set<string>()
  for (const node of draft.nodes) {
    if (nodes.length >= FLOW_LIMITS.nodes) {
      report.warn("truncated", `More than ${FLOW_LIMITS.nodes} nodes: the rest were left out`)
      report.skip(draft.nodes.length - nodes.length)
      break
    }
    if (node.position === undefined) withoutPosition.add(node.id)
    const candidate = {
      id: node.id,
      type: node.type,
      ...(node.label === undefined ? {} : { label: node.label }),
      position: node.position ?? { x: 0, y: 0 },
      ...(node.subflow !== undefined && subflowIds.has(node.subflow) ? { subflow: node.subflow } : {}),
      data: node.data
    }
    const decoded = decodeNode(candidate)
    if (Either.isLeft(decoded)) {
      report.warn("unknown-node-type", `Node ${node.id} (${node.type}) left out: ${schemaProblem(decoded.left)}`, {
        ...node.location,
        elementId: node.location?.elementId ?? node.id
      })
      report.skip()
      continue
    }
    nodes.push(decoded.right)
  }
  const nodeIds = new Set<string>(nodes.map((node) => node.id))
  const edges: Array<FlowEdge> = []
  for (const edge of draft.edges) {
    if (!nodeIds.has(edge.source) || !nodeIds.has(edge.target)) {
      report.warn("dangling-edge", `Edge ${edge.id} joins a node that was not imported`, {
        ...edge.location,
        elementId: edge.location?.elementId ?? edge.id
      })
      report.skip()
      continue
    }
    if (edges.length >= FLOW_LIMITS.edges) {
      report.warn("truncated", `More than ${FLOW_LIMITS.edges} edges: the rest were left out`)
      report.skip()
      continue
    }
    const decoded = decodeEdge({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      ...edge.route,
      ...(edge.label === undefined ? {} : { label: edge.label })
    })
    if (Either.isLeft(decoded)) {
      report.warn("unsupported-element", `Edge ${edge.id} left out: ${schemaProblem(decoded.left)}`, edge.location)
      report.skip()
      continue
    }
    edges.push(decoded.right)
  }
  const subflows: Array<Subflow> = []
  for (const subflow of draft.subflows.slice(0, FLOW_LIMITS.subflows)) {
    const decoded = Schema.decodeUnknownEither(SubflowSchema)(subflow)
    if (Either.isRight(decoded) && nodeIds.has(subflow.entryNodeId)) {
      subflows.push(decoded.right)
    } else {
      report.warn("unresolved-reference", `Sub-flow ${subflow.name} has no usable entry node and was left out`)
    }
  }
  if (draft.subflows.length > FLOW_LIMITS.subflows) {
    report.warn("truncated", `More than ${FLOW_LIMITS.subflows} sub-flows: the rest were merged into the main flow`)
  }
  const keptSubflows = new Set(subflows.map((subflow) => subflow.id))
  const placed = layoutPositions(
    nodes.map((node) =>
      node.subflow !== undefined && !keptSubflows.has(node.subflow)
        ? (({ subflow: _, ...rest }) => rest as FlowNode)(node)
        : node
    ),
    edges,
    withoutPosition
  )
  if (withoutPosition.size > 0) {
    report.warn("layout-generated", `${withoutPosition.size} nodes had no position in the source: a layout was made`)
  }
  const intents = finishIntents(draft.intents, report)
  if (placed.length === 0 && intents.length === 0) {
    return unreadable(
      report.warnings().length > 0
        ? report.warnings()
        : [{ code: "unreadable", message: "The source holds no node and no intent that could be imported" }]
    )
  }
  const structure = checkFlowStructure({ nodes: placed, edges, subflows })
  if (Either.isLeft(structure)) {
    return unreadable(structure.left.problems.map((problem) => ({ code: "unreadable", message: problem.message })))
  }
  return {
    _tag: "Mapped",
    flow: structure.right,
    intents,
    report: reportOf(report, {
      nodes: placed.length,
      edges: edges.length,
      subflows: subflows.length,
      intents: intents.length,
      utterances: intents.reduce((sum, intent) => sum + intent.utterances.length, 0)
    })
  }
}
