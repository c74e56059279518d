/**
 * Diagrams (draw.io pages, Mermaid flowcharts) as flows. A converter reads
 * its format into pages of shapes and connectors; this maps them: the first
 * terminal becomes the start, terminals without a way out become ends,
 * decisions become conditions (yes/no labels) or intent routers (other
 * labels, one intent each), manual inputs become questions, every other shape
 * a message. Elements a Parley export wrote carry their node or route as
 * metadata and come back exactly as they were.
 */
import { Either, Schema } from "effect"
import { EdgeRoute } from "../assistants/FlowEdge.js"
import { FlowNode } from "../assistants/FlowNode.js"
import { excerpt } from "../Excerpt.js"
import type { ImportWarning } from "./Import.js"
import type { Draft, DraftEdge, DraftIntent, DraftNode } from "./ImportDraft.js"
import type { ReportBuilder } from "./ImportReportBuilder.js"
import { intentNameFrom, labelOf, makeIdAllocator, routeKeyFrom, variableNameFrom } from "./ImportText.js"

type Location = NonNullable<ImportWarning["location"]>

/** How a shape reads, whatever the format drew it with. */
export type ShapeKind = "start" | "end" | "terminal" | "decision" | "input" | "process" | "text" | "container"

export interface ChartNode {
  readonly sourceId: string
  readonly label: string
  readonly shape: ShapeKind
  readonly position?: { readonly x: number; readonly y: number } | undefined
  /** A node as a Parley export wrote it: `{ id, type, label?, data }`. */
  readonly meta?: unknown
  readonly location: Location
}

export interface ChartEdge {
  readonly sourceId: string
  readonly source: string | undefined
  readonly target: string | undefined
  readonly label: string
  /** A route as a Parley export wrote it: `{ id?, kind, intent?|case?|option?, label? }`. */
  readonly meta?: unknown
  readonly location: Location
}

export interface ChartPage {
  readonly sourceId: string
  readonly name: string
  readonly nodes: ReadonlyArray<ChartNode>
  readonly edges: ReadonlyArray<ChartEdge>
  /** A sub-flow as a Parley export wrote it: `{ id, name, entryNodeId }`. */
  readonly subflow?: unknown
}

const NodeMeta = Schema.Struct({
  id: Schema.optional(Schema.String),
  type: Schema.String,
  label: Schema.optional(Schema.String),
  data: Schema.Unknown
})
const EdgeMeta = Schema.extend(
  EdgeRoute,
  Schema.Struct({ id: Schema.optional(Schema.String), label: Schema.optional(Schema.String) })
)
const SubflowMeta = Schema.Struct({ id: Schema.String, name: Schema.String, entryNodeId: Schema.String })

const truthy = new Set(["yes", "y", "true", "ok", "okay", "valid", "correct", "si", "oui", "ja"])
const falsy = new Set(["no", "n", "false", "invalid", "incorrect", "nope", "non", "nein"])
const normal = (label: string) => label.trim().toLowerCase().replace(/[.!?]+$/, "")

/** A node given by metadata, checked as a whole node; undefined (and a warning) when it does not hold. */
const metaNode = (node: ChartNode, report: ReportBuilder) => {
  if (node.meta === undefined) return undefined
  const meta = Schema.decodeUnknownEither(NodeMeta)(node.meta)
  const whole = Either.flatMap(meta, (m) =>
    Schema.decodeUnknownEither(FlowNode)({
      id: "probe",
      type: m.type,
      ...(m.label === undefined ? {} : { label: m.label }),
      position: { x: 0, y: 0 },
      data: m.data
    }))
  if (Either.isLeft(meta) || Either.isLeft(whole)) {
    report.warn(
      "unknown-node-type",
      `Node ${node.sourceId}: its Parley metadata does not describe a node; read by shape`,
      node.location
    )
    return undefined
  }
  return meta.right
}

interface Mapping {
  readonly type: string
  readonly data: unknown
  readonly label?: string | undefined
}

/** Map all pages: the main page is the main flow, every other page a sub-flow. */
export const chartToDraft = (pages: ReadonlyArray<ChartPage>, mainIndex: number, report: ReportBuilder): Draft => {
  const allocateNode = makeIdAllocator("n")
  const allocateEdge = makeIdAllocator("e")
  const allocateSubflow = makeIdAllocator("sf")
  const nodes: Array<DraftNode> = []
  const edges: Array<DraftEdge> = []
  const subflows: Array<{ id: string; name: string; entryNodeId: string }> = []
  const intents = new Map<string, DraftIntent>()
  const metaIds = new Map<string, string>()
  const pending: Array<() => void> = []
  let hasStart = false

  const order = [mainIndex, ...pages.map((_, i) => i).filter((i) => i !== mainIndex)]
  for (const pageIndex of order) {
    const page = pages[pageIndex]!
    const main = pageIndex === mainIndex
    const subflowMeta = page.subflow === undefined ? undefined : Schema.decodeUnknownOption(SubflowMeta)(page.subflow)
    const subflowId = main
      ? undefined
      : allocateSubflow(subflowMeta?._tag === "Some" ? subflowMeta.value.id : page.sourceId)
    const byId = new Map(page.nodes.map((node) => [node.sourceId, node]))
    const connected = page.edges.filter((edge) => {
      const ok = edge.source !== undefined && edge.target !== undefined && byId.has(edge.source) &&
        byId.has(edge.target)
      if (!ok) {
        report.warn("dangling-edge", "A connector without a shape at both ends was left out", edge.location)
        report.skip()
      }
      return ok
    })
    const outgoing = new Map<string, Array<ChartEdge>>()
    const incoming = new Map<string, number>()
    for (const edge of connected) {
      const outs = outgoing.get(edge.source!)
      if (outs === undefined) outgoing.set(edge.source!, [edge])
      else outs.push(edge)
      incoming.set(edge.target!, (incoming.get(edge.target!) ?? 0) + 1)
    }
    const ids = new Map<string, string>()
    const types = new Map<string, string>()
    const passThrough = new Set<string>()
    const pageNodes: Array<DraftNode> = []

    for (const node of page.nodes) {
      const outs = outgoing.get(node.sourceId) ?? []
      const ins = incoming.get(node.sourceId) ?? 0
      const meta = metaNode(node, report)
      let mapping: Mapping | undefined
      if (meta !== undefined) {
        mapping = { type: meta.type, data: meta.data, label: meta.label }
      } else {
        if ((node.shape === "text" || node.shape === "container") && outs.length === 0 && ins === 0) {
          report.warn(
            "unsupported-element",
            `${node.shape === "text" ? "Text" : "Container"} ${
              excerpt(node.label, 40) || node.sourceId
            } is not a step and was left out`,
            node.location
          )
          report.skip()
          continue
        }
        const blank = node.label.trim().length === 0
        const terminalLike = node.shape === "start" || node.shape === "end" || node.shape === "terminal"
        if (blank && !terminalLike && outs.length === 0 && ins === 0) {
          report.warn(
            "unsupported-element",
            `Shape ${node.sourceId} has no text and no connector: left out`,
            node.location
          )
          report.skip()
          continue
        }
        if (!main && (node.shape === "start" || (node.shape === "terminal" && ins === 0 && outs.length > 0))) {
          passThrough.add(node.sourceId)
          continue
        }
        mapping = mapShape(node, outs, ins, main && !hasStart, report, intents)
      }
      if (mapping.type === "start") {
        if (!main || hasStart) {
          report.warn("multiple-starts", `Node ${node.sourceId} is another start: it became a message`, node.location)
          mapping = { type: "message", data: { text: node.label.trim() || "Start" }, label: labelOf(node.label) }
        } else {
          hasStart = true
        }
      }
      const id = allocateNode(meta?.id ?? node.sourceId)
      if (meta?.id !== undefined) metaIds.set(meta.id, id)
      if (meta?.id !== undefined && meta.id !== id) {
        report.warn("duplicate-id", `Node id ${meta.id} was taken: it became ${id}`, node.location)
      }
      ids.set(node.sourceId, id)
      types.set(node.sourceId, mapping.type)
      const draftNode: DraftNode = {
        id,
        type: mapping.type,
        label: mapping.label === undefined ? undefined : labelOf(mapping.label),
        position: node.position,
        subflow: subflowId,
        data: mapping.data,
        location: { ...node.location, elementId: node.location.elementId ?? node.sourceId }
      }
      pageNodes.push(draftNode)
    }

    // Shapes a sub-flow page starts with pass on to what follows them.
    const entryCandidates: Array<string> = []
    for (const edge of connected) {
      if (passThrough.has(edge.source!) && ids.has(edge.target!)) entryCandidates.push(ids.get(edge.target!)!)
    }

    const firstPageEdge = edges.length
    for (const [source, outs] of outgoing) {
      const sourceType = types.get(source)
      if (sourceType === undefined) continue
      const routes = routeEdges(byId.get(source)!, sourceType, outs, report)
      for (const { edge, route } of routes) {
        if (!ids.has(edge.target!)) continue
        const edgeMeta = edge.meta === undefined ? undefined : Schema.decodeUnknownOption(EdgeMeta)(edge.meta)
        if (edge.meta !== undefined && edgeMeta?._tag !== "Some") {
          report.warn(
            "unsupported-element",
            "A connector's Parley metadata is not a route: read by its label",
            edge.location
          )
        }
        const metaRoute = edgeMeta?._tag === "Some" ? edgeMeta.value : undefined
        const { id: metaId, label: metaLabel, ...metaKind } = metaRoute ?? { id: undefined, label: undefined }
        edges.push({
          id: allocateEdge(metaId ?? edge.sourceId),
          source: ids.get(source)!,
          target: ids.get(edge.target!)!,
          route: metaRoute === undefined ? route : (metaKind as Record<string, string>),
          label: metaRoute === undefined ? labelOf(edge.label) : metaLabel,
          location: { ...edge.location, elementId: edge.location.elementId ?? edge.sourceId }
        })
      }
    }
    nodes.push(...pageNodes)

    if (!main && subflowId !== undefined) {
      if (pageNodes.length === 0) {
        report.warn("unsupported-element", `Page ${page.name} holds nothing importable: no sub-flow was made`, {
          page: page.name
        })
        continue
      }
      const pageIds = new Set(pageNodes.map((n) => n.id))
      const targets = new Set(
        edges.slice(firstPageEdge).filter((edge) => pageIds.has(edge.target)).map((e) => e.target)
      )
      const name = excerpt(
        (subflowMeta?._tag === "Some" ? subflowMeta.value.name : page.name).trim() || `Page ${pageIndex + 1}`,
        120
      )
      const entryFromMeta = subflowMeta?._tag === "Some" ? subflowMeta.value.entryNodeId : undefined
      const fallbackEntry = entryCandidates[0] ?? pageNodes.find((n) => !targets.has(n.id))?.id ?? pageNodes[0]!.id
      const subflow = { id: subflowId, name, entryNodeId: fallbackEntry }
      subflows.push(subflow)
      if (entryFromMeta !== undefined) {
        pending.push(() => {
          subflow.entryNodeId = metaIds.get(entryFromMeta) ?? fallbackEntry
        })
      }
    }
  }
  pending.forEach((resolve) => resolve())

  if (!hasStart && nodes.length > 0) {
    const main = nodes.filter((node) => node.subflow === undefined)
    const targets = new Set(edges.map((edge) => edge.target))
    const first = main.find((node) => !targets.has(node.id)) ?? main[0]
    const start = allocateNode("start")
    report.warn("missing-start", "The diagram has no start shape: a start node was added before its first step")
    nodes.unshift({ id: start, type: "start", data: {}, label: "Start" })
    if (first !== undefined) {
      edges.push({ id: allocateEdge(), source: start, target: first.id, route: { kind: "next" } })
    }
  }

  return { nodes, edges, subflows, intents: [...intents.values()] }
}

/** The node a shape without metadata becomes. */
const mapShape = (
  node: ChartNode,
  outs: ReadonlyArray<ChartEdge>,
  ins: number,
  mayStart: boolean,
  report: ReportBuilder,
  intents: Map<string, DraftIntent>
): Mapping => {
  const text = node.label.trim()
  const shown = text.replace(/\s+/g, " ")
  const label = labelOf(text)
  const message = (): Mapping => {
    if (text.length === 0) {
      report.warn(
        "unsupported-element",
        `Shape ${node.sourceId} has no text: it became an empty message`,
        node.location
      )
    }
    return { type: "message", data: { text: excerpt(text || "…", 4000) }, label }
  }
  switch (node.shape) {
    case "start":
      return mayStart && ins === 0 ? { type: "start", data: {}, label } : message()
    case "end":
      return outs.length === 0 ? { type: "end", data: {}, label } : message()
    case "terminal":
      if (mayStart && ins === 0 && outs.length > 0) return { type: "start", data: {}, label }
      if (outs.length === 0) return { type: "end", data: {}, label }
      return message()
    case "decision": {
      if (outs.length === 0) {
        report.warn(
          "unsupported-element",
          `Decision ${excerpt(shown, 40)} leads nowhere: it became a message`,
          node.location
        )
        return message()
      }
      const labels = outs.map((edge) => normal(edge.label)).filter((l) => l.length > 0)
      if (labels.length > 0 && labels.every((l) => truthy.has(l) || falsy.has(l))) {
        const variable = variableNameFrom(text, "decision")
        const hasTrue = labels.some((l) => truthy.has(l))
        const cases = [...new Set(labels.filter((l) => hasTrue ? truthy.has(l) : true))].map((l) => ({
          key: routeKeyFrom(l, "yes"),
          expression: `vars.${variable} = ${truthy.has(l)}`
        }))
        report.warn(
          "unsupported-feature",
          `Decision ${
            excerpt(shown, 60)
          } became a condition on vars.${variable}: set it earlier in the flow or edit the expression`,
          node.location
        )
        return { type: "condition", data: { cases }, label }
      }
      const names = [
        ...new Set(
          outs.filter((edge) => edge.label.trim().length > 0).map((edge) => intentNameFrom(edge.label, "choice"))
        )
      ]
      if (names.length === 0) {
        const variable = variableNameFrom(text, "decision")
        report.warn(
          "unlabelled-edge",
          `Decision ${excerpt(shown, 40)} has no labelled branch: a condition on vars.${variable} was made`,
          node.location
        )
        return { type: "condition", data: { cases: [{ key: "yes", expression: `vars.${variable} = true` }] }, label }
      }
      for (const edge of outs) {
        const edgeLabel = edge.label.trim()
        if (edgeLabel.length === 0) continue
        const name = intentNameFrom(edgeLabel, "choice")
        const known = intents.get(name)
        intents.set(name, {
          name,
          description: known?.description ?? `From the branch "${excerpt(edgeLabel, 200)}" of a diagram`,
          utterances: [...new Set([...(known?.utterances ?? []), edgeLabel.replace(/\s+/g, " ")])]
        })
      }
      return { type: "intent-router", data: { intents: names.slice(0, 200) }, label }
    }
    case "input":
      return {
        type: "question",
        data: {
          prompt: excerpt(text || "…", 4000),
          variable: variableNameFrom(text),
          validation: { kind: "text" }
        },
        label
      }
    default:
      return message()
  }
}

/** The route each connector leaving a node takes. */
const routeEdges = (
  node: ChartNode,
  type: string,
  outs: ReadonlyArray<ChartEdge>,
  report: ReportBuilder
): ReadonlyArray<{ edge: ChartEdge; route: Record<string, string> }> => {
  const next = (edge: ChartEdge) => ({ edge, route: { kind: "next" } })
  switch (type) {
    case "condition": {
      const labels = outs.map((edge) => normal(edge.label))
      const hasTrue = labels.some((l) => truthy.has(l))
      let fallbacks = 0
      return outs.map((edge) => {
        const l = normal(edge.label)
        if (l.length === 0 || (hasTrue && falsy.has(l))) {
          if (++fallbacks > 1) {
            report.warn(
              "unlabelled-edge",
              `Decision ${node.sourceId} has more than one otherwise-branch`,
              edge.location
            )
          }
          return { edge, route: { kind: "fallback" } }
        }
        return { edge, route: { kind: "case", case: routeKeyFrom(l, "yes") } }
      })
    }
    case "intent-router":
      return outs.map((edge) =>
        edge.label.trim().length === 0
          ? { edge, route: { kind: "fallback" } }
          : { edge, route: { kind: "intent", intent: intentNameFrom(edge.label, "choice") } }
      )
    case "question":
      return outs.map((edge, i) => ({ edge, route: { kind: i === 0 ? "answered" : "fallback" } }))
    case "end":
    case "handoff":
    case "jump":
      if (outs.length > 0 && outs.every((edge) => edge.meta === undefined)) {
        report.warn("unsupported-element", `Connectors leaving ${node.sourceId} (${type}) were left out`, node.location)
        report.skip(outs.length)
        return []
      }
      return outs.map(next)
    default:
      if (outs.length > 1 && outs.every((edge) => edge.meta === undefined)) {
        report.warn(
          "unsupported-feature",
          `Step ${
            excerpt(node.label.replace(/\s+/g, " "), 40) || node.sourceId
          } has ${outs.length} ways out with nothing to choose between them: review it`,
          node.location
        )
      }
      return outs.map(next)
  }
}
