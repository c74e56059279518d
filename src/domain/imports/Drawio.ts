/**
 * draw.io diagrams: an `<mxfile>` of pages, each plain (`<mxGraphModel>`
 * inline) or compressed (base64 of raw DEFLATE of the URI-encoded model), or
 * a bare `<mxGraphModel>`. Vertices are classified by their style, labels lose
 * their HTML, edge labels come from the edge and its label children, and
 * positions are made absolute. `Flowchart` then maps the pages to a flow.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { inflateRawBounded } from "./BoundedInflate.js"
import { type ChartEdge, type ChartNode, type ChartPage, chartToDraft, type ShapeKind } from "./Flowchart.js"
import type { ImportWarning } from "./Import.js"
import { type Conversion, finishDraft, unreadable } from "./ImportDraft.js"
import { makeReportBuilder, type ReportBuilder } from "./ImportReportBuilder.js"
import { plainText } from "./ImportText.js"

type Element = Record<string, unknown>

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ["diagram", "mxCell", "object", "UserObject", "mxfile"].includes(name)
})

const problem = (message: string): ImportWarning => ({ code: "unreadable", message })

const asArray = (value: unknown): ReadonlyArray<Element> =>
  Array.isArray(value) ? value.filter((v): v is Element => typeof v === "object" && v !== null) : []

const attr = (element: Element | undefined, name: string): string | undefined => {
  const value = element?.[`@_${name}`]
  return typeof value === "string" ? value : undefined
}

/** The style of a cell as its tokens: `rhombus`, `shape=ellipse`, ... */
const styleOf = (style: string | undefined): Map<string, string> => {
  const entries = new Map<string, string>()
  for (const token of (style ?? "").split(";")) {
    const [key, ...rest] = token.split("=")
    if (key !== undefined && key.trim().length > 0) entries.set(key.trim(), rest.join("=").trim())
  }
  return entries
}

const shapeOf = (style: Map<string, string>, label: string): ShapeKind => {
  const shape = style.get("shape") ?? ""
  const has = (token: string) => style.has(token) || shape === token
  if (
    has("swimlane") || has("group") || style.get("container") === "1" || shape.includes("swimlane") ||
    shape === "table" || shape.includes("lifeline") || shape.includes("pool") || shape.includes("lane")
  ) return "container"
  if (
    has("text") || has("edgeLabel") || has("image") || shape === "note" || shape.includes("annotation") ||
    shape === "callout"
  ) return "text"
  if (has("rhombus") || shape.includes("decision") || shape.includes("gateway")) return "decision"
  if (shape === "endState" || shape.includes("terminate") || has("doubleEllipse") || shape.includes("end")) return "end"
  if (shape.includes("manual_input") || shape === "manualInput") return "input"
  if (
    shape.includes("terminator") || shape.includes("start_") || shape.includes("bpmn.event") || has("ellipse") ||
    shape === "ellipse" || shape === "startState"
  ) {
    return label.trim().length === 0 && style.get("fillColor")?.toLowerCase() === "#000000" ? "start" : "terminal"
  }
  return "process"
}

interface Cell {
  readonly id: string
  readonly value: string
  readonly style: Map<string, string>
  readonly vertex: boolean
  readonly edge: boolean
  readonly parent: string | undefined
  readonly source: string | undefined
  readonly target: string | undefined
  readonly x: number
  readonly y: number
  readonly meta: string | undefined
}

const numberOf = (text: string | undefined) => {
  const n = Number(text ?? "0")
  return Number.isFinite(n) ? n : 0
}

/** The cells of a model, whether bare `<mxCell>` or wrapped in `<object>`/`<UserObject>`. */
const cellsOf = (model: Element): ReadonlyArray<Cell> => {
  const root = model["root"] as Element | undefined
  if (root === undefined || typeof root !== "object") return []
  const cells: Array<Cell> = []
  const read = (cell: Element, wrapper: Element | undefined) => {
    const geometry = cell["mxGeometry"] as Element | undefined
    const id = attr(wrapper, "id") ?? attr(cell, "id")
    if (id === undefined) return
    cells.push({
      id,
      value: attr(wrapper, "label") ?? attr(cell, "value") ?? "",
      style: styleOf(attr(cell, "style")),
      vertex: attr(cell, "vertex") === "1",
      edge: attr(cell, "edge") === "1",
      parent: attr(cell, "parent"),
      source: attr(cell, "source"),
      target: attr(cell, "target"),
      x: numberOf(attr(geometry, "x")),
      y: numberOf(attr(geometry, "y")),
      meta: attr(wrapper, "parley")
    })
  }
  for (const cell of asArray(root["mxCell"])) read(cell, undefined)
  for (const wrapper of [...asArray(root["object"]), ...asArray(root["UserObject"])]) {
    const inner = asArray(wrapper["mxCell"])[0]
    if (inner !== undefined) read(inner, wrapper)
  }
  return cells
}

const parseMeta = (text: string | undefined): unknown => {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return { unreadable: text }
  }
}

/** One page as shapes and connectors. */
const pageOf = (name: string, pageId: string, model: Element, pageMeta: unknown, report: ReportBuilder): ChartPage => {
  const cells = cellsOf(model)
  const byId = new Map(cells.map((cell) => [cell.id, cell]))
  const absolute = (cell: Cell, depth = 0): { x: number; y: number } => {
    const parent = cell.parent === undefined ? undefined : byId.get(cell.parent)
    if (parent === undefined || !parent.vertex || depth > 50) return { x: cell.x, y: cell.y }
    const base = absolute(parent, depth + 1)
    return { x: base.x + cell.x, y: base.y + cell.y }
  }
  const edgeLabels = new Map<string, Array<string>>()
  const nodes: Array<ChartNode> = []
  for (const cell of cells) {
    const parent = cell.parent === undefined ? undefined : byId.get(cell.parent)
    if (cell.vertex && parent?.edge === true) {
      const text = plainText(cell.value)
      if (text.length > 0) {
        const labels = edgeLabels.get(parent.id)
        if (labels === undefined) edgeLabels.set(parent.id, [text])
        else labels.push(text)
      }
      continue
    }
    if (!cell.vertex) continue
    const label = plainText(cell.value)
    const { x, y } = absolute(cell)
    nodes.push({
      sourceId: cell.id,
      label,
      shape: shapeOf(cell.style, label),
      position: { x: clamp(x), y: clamp(y) },
      meta: parseMeta(cell.meta),
      location: { page: name, elementId: cell.id }
    })
  }
  const edges: Array<ChartEdge> = cells.filter((cell) => cell.edge).map((cell) => ({
    sourceId: cell.id,
    source: cell.source,
    target: cell.target,
    label: [plainText(cell.value), ...(edgeLabels.get(cell.id) ?? [])].filter((t) => t.length > 0).join(" "),
    meta: parseMeta(cell.meta),
    location: { page: name, elementId: cell.id }
  }))
  const roots = new Set(cells.filter((cell) => cell.parent === undefined).map((cell) => cell.id))
  const others = cells.filter((cell) =>
    !cell.vertex && !cell.edge && cell.parent !== undefined && !roots.has(cell.parent)
  )
  if (others.length > 0) {
    report.warn("unsupported-element", `${others.length} cells that are neither shapes nor connectors were left out`, {
      page: name
    })
    report.skip(others.length)
  }
  return { sourceId: pageId, name, nodes, edges, subflow: pageMeta }
}

const clamp = (n: number) => Math.max(-1_000_000, Math.min(1_000_000, Math.round(n)))

/** The model of a compressed page: base64, raw DEFLATE, then URI-encoded XML. */
const decompress = (text: string): { model?: Element; reason?: string } => {
  const compact = text.replace(/\s+/g, "")
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return { reason: "its content is neither a model nor base64" }
  const inflated = inflateRawBounded(new Uint8Array(Buffer.from(compact, "base64")))
  if (!inflated.ok) return { reason: `its compressed content could not be read: ${inflated.reason}` }
  const raw = Buffer.from(inflated.bytes).toString("utf8")
  let xml = raw
  try {
    xml = decodeURIComponent(raw)
  } catch {
    // Older files compress the XML itself.
  }
  const parsed = parseXml(xml)
  const model = parsed?.["mxGraphModel"] as Element | undefined
  return model === undefined || typeof model !== "object" ? { reason: "its content is not an mxGraphModel" } : { model }
}

/** A line or column of a validation error; the validator leaves the column out of some errors. */
const position = (n: number | undefined) => (typeof n === "number" && Number.isInteger(n) && n > 0 ? n : 1)

const parseXml = (xml: string): Element | undefined => {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return undefined
  if (XMLValidator.validate(xml) !== true) return undefined
  try {
    return parser.parse(xml) as Element
  } catch {
    return undefined
  }
}

/** Read a diagram into pages (or the problems that left none). */
export const readDrawioPages = (
  xml: string,
  report: ReportBuilder
): { pages: ReadonlyArray<ChartPage>; problems: ReadonlyArray<ImportWarning> } => {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    return { pages: [], problems: [problem("The document declares a DOCTYPE or entities, which diagrams never do")] }
  }
  const validation = XMLValidator.validate(xml)
  if (validation !== true) {
    return {
      pages: [],
      problems: [{
        code: "unreadable",
        message: `Not well-formed XML: ${validation.err.msg}`,
        location: { line: position(validation.err.line), column: position(validation.err.col) }
      }]
    }
  }
  const document = parser.parse(xml) as Element
  const bare = document["mxGraphModel"] as Element | undefined
  if (bare !== undefined && typeof bare === "object") {
    return { pages: [pageOf("Page-1", "page-1", bare, undefined, report)], problems: [] }
  }
  const file = asArray(document["mxfile"])[0]
  const diagrams = asArray(file?.["diagram"])
  if (file === undefined || diagrams.length === 0) {
    return { pages: [], problems: [problem("No <mxfile> with diagrams and no <mxGraphModel> in the document")] }
  }
  const pages: Array<ChartPage> = []
  const problems: Array<ImportWarning> = []
  diagrams.forEach((diagram, i) => {
    const name = attr(diagram, "name") ?? `Page-${i + 1}`
    const id = attr(diagram, "id") ?? `page-${i + 1}`
    const inline = diagram["mxGraphModel"] as Element | undefined
    const decoded = inline !== undefined && typeof inline === "object"
      ? { model: inline }
      : typeof diagram["#text"] === "string"
      ? decompress(diagram["#text"])
      : { reason: "it is empty" }
    if (decoded.model === undefined) {
      const warning: ImportWarning = {
        code: "unreadable",
        message: `Page ${name}: ${decoded.reason}`,
        location: { page: name }
      }
      problems.push(warning)
      report.warn(warning.code, warning.message, warning.location)
      return
    }
    pages.push(pageOf(name, id, decoded.model, parseMeta(attr(diagram, "parley")), report))
  })
  return { pages, problems }
}

/** Import a draw.io diagram. */
export const importDrawio = (xml: string, mainPage?: string): Conversion => {
  const report = makeReportBuilder()
  const { pages, problems } = readDrawioPages(xml, report)
  if (pages.length === 0) return unreadable(problems.length > 0 ? problems : [problem("The diagram has no page")])
  let mainIndex = 0
  if (mainPage !== undefined) {
    const found = pages.findIndex((page) => page.name === mainPage || page.sourceId === mainPage)
    if (found >= 0) mainIndex = found
    else report.warn("unresolved-reference", `No page is named ${mainPage}: the first page is the main flow`)
  }
  return finishDraft(chartToDraft(pages, mainIndex, report), report)
}
