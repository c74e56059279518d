/**
 * Mermaid flowcharts (`graph`/`flowchart` with a direction), parsed here
 * without a browser: classic node shapes, the `A@{ shape, label }` syntax,
 * every link style with `-->|label|` and `-- label -->` labels (see
 * `MermaidLinks` for two-way, circle and cross ends), quoted and Markdown
 * labels over several lines (`MermaidLabel`, `MermaidLines`), chains and `&`
 * (`A & B --> C` is a route from each), `;` between statements, subgraphs,
 * comments. Styling lines are ignored; a Parley export's `%% parley:`
 * comments carry each node, route and sub-flow as it was.
 */
import { parse as parseYaml } from "yaml"
import { excerpt } from "../Excerpt.js"
import { type ChartEdge, type ChartNode, type ChartPage, chartToDraft, type ShapeKind } from "./Flowchart.js"
import type { ImportWarning } from "./Import.js"
import { type Conversion, finishDraft, unreadable } from "./ImportDraft.js"
import { makeReportBuilder, type ReportBuilder } from "./ImportReportBuilder.js"
import { labelText } from "./MermaidLabel.js"
import { mermaidLines, splitStatements } from "./MermaidLines.js"
import { readLink } from "./MermaidLinks.js"

/** Shape openers and closers, longest first. */
const brackets: ReadonlyArray<readonly [string, string, ShapeKind]> = [
  ["(((", ")))", "end"],
  ["([", "])", "terminal"],
  ["[[", "]]", "process"],
  ["[(", ")]", "process"],
  ["((", "))", "terminal"],
  ["{{", "}}", "process"],
  ["[/", "/]", "process"],
  ["[/", "\\]", "process"],
  ["[\\", "\\]", "process"],
  ["[\\", "/]", "process"],
  ["(", ")", "process"],
  ["[", "]", "process"],
  ["{", "}", "decision"],
  [">", "]", "process"]
]

/** The `@{ shape: }` names (and aliases) that read as something other than a step. */
const namedShapes: Record<string, ShapeKind> = {
  stadium: "terminal",
  pill: "terminal",
  terminal: "terminal",
  circle: "terminal",
  circ: "terminal",
  "sm-circ": "start",
  "small-circle": "start",
  start: "start",
  "fr-circ": "end",
  "framed-circle": "end",
  stop: "end",
  "dbl-circ": "end",
  "double-circle": "end",
  "f-circ": "end",
  diamond: "decision",
  diam: "decision",
  decision: "decision",
  question: "decision",
  "sl-rect": "input",
  "manual-input": "input",
  "sloped-rectangle": "input",
  text: "text",
  comment: "text",
  "brace": "text",
  "brace-l": "text",
  "brace-r": "text",
  braces: "text"
}

const ID = /^[\p{L}\p{N}_$][\p{L}\p{N}_$]*(?:-(?![-.>])[\p{L}\p{N}_$]+)*/u
interface Cursor {
  text: string
  at: number
}

const skipSpace = (c: Cursor) => {
  while (c.at < c.text.length && /\s/.test(c.text[c.at]!)) c.at++
}

/**
 * Where the `}` closing an `@{` opened at the start of `text` is: the first
 * one outside quoted values (`"..."`, or `'...'` opening a value), -1 if none.
 */
const closingBrace = (text: string): number => {
  let quote: string | undefined
  for (let i = 2; i < text.length; i++) {
    const ch = text[i]!
    if (quote !== undefined) {
      if (ch === quote) quote = undefined
    } else if (ch === "\"" || (ch === "'" && /[:,{]\s*$/.test(text.slice(Math.max(0, i - 8), i)))) {
      quote = ch
    } else if (ch === "}") {
      return i
    }
  }
  return -1
}

interface Parsed {
  nodes: Map<string, { label: string; shape: ShapeKind; meta?: unknown; line: number; subgraph?: string | undefined }>
  edges: Array<ChartEdge>
  subgraphs: Map<string, { name: string; meta?: unknown }>
}

const readNode = (c: Cursor, parsed: Parsed, line: number, subgraph: string | undefined): string | undefined => {
  skipSpace(c)
  const match = ID.exec(c.text.slice(c.at))
  if (match === null) return undefined
  const id = match[0]
  c.at += id.length
  let label: string | undefined
  let shape: ShapeKind | undefined
  const rest = c.text.slice(c.at)
  if (rest.startsWith("@{")) {
    const close = closingBrace(rest)
    if (close < 0) return undefined
    const body = rest.slice(2, close)
    c.at += close + 1
    let props: Record<string, unknown> = {}
    try {
      const value = parseYaml(`{${body}}`) as unknown
      if (typeof value === "object" && value !== null) props = value as Record<string, unknown>
    } catch {
      for (const part of body.split(",")) {
        const [key, ...value] = part.split(":")
        if (key !== undefined) props[key.trim()] = value.join(":").trim()
      }
    }
    if (props["label"] !== undefined) label = labelText(String(props["label"]))
    shape = namedShapes[String(props["shape"] ?? "rect").trim().toLowerCase()] ?? "process"
  } else {
    for (const [open, close, kind] of brackets) {
      if (!rest.startsWith(open)) continue
      const inner = rest.slice(open.length)
      let end: number
      if (inner.trimStart().startsWith("\"")) {
        const quoteStart = inner.indexOf("\"")
        const quoteEnd = inner.indexOf("\"", quoteStart + 1)
        end = quoteEnd < 0 ? -1 : inner.indexOf(close, quoteEnd + 1)
      } else {
        end = inner.indexOf(close)
      }
      if (end < 0) continue
      label = labelText(inner.slice(0, end))
      shape = kind
      c.at += open.length + end + close.length
      break
    }
  }
  const classSuffix = /^:::[\w-]+/.exec(c.text.slice(c.at))
  if (classSuffix !== null) c.at += classSuffix[0].length
  const known = parsed.nodes.get(id)
  if (known === undefined) {
    parsed.nodes.set(id, { label: label ?? id, shape: shape ?? "process", line, subgraph })
  } else if (label !== undefined || shape !== undefined) {
    parsed.nodes.set(id, { ...known, label: label ?? known.label, shape: shape ?? known.shape })
  }
  return id
}

const readGroup = (c: Cursor, parsed: Parsed, line: number, subgraph: string | undefined) => {
  const ids: Array<string> = []
  for (;;) {
    const id = readNode(c, parsed, line, subgraph)
    if (id === undefined) return ids
    ids.push(id)
    skipSpace(c)
    if (c.text[c.at] !== "&") return ids
    c.at++
  }
}

/**
 * One statement: a node, or a chain of links. False when it is neither.
 * `note` hears of each link read other than as drawn (see `MermaidLinks`).
 */
const readStatement = (
  statement: string,
  parsed: Parsed,
  line: number,
  subgraph: string | undefined,
  note: (message: string) => void
): boolean => {
  const c: Cursor = { text: statement, at: 0 }
  let left = readGroup(c, parsed, line, subgraph)
  if (left.length === 0) return false
  for (;;) {
    skipSpace(c)
    if (c.at >= c.text.length) return true
    const link = readLink(c.text.slice(c.at))
    if (link === undefined) return false
    c.at += link.length
    let label = link.text === undefined ? "" : labelText(link.text)
    const piped = /^\s*\|([^|]*)\|/.exec(c.text.slice(c.at))
    if (piped !== null) {
      label = labelText(piped[1]!)
      c.at += piped[0].length
    }
    const right = readGroup(c, parsed, line, subgraph)
    if (right.length === 0) return false
    if (!link.invisible) {
      const join = (from: ReadonlyArray<string>, to: ReadonlyArray<string>) => {
        for (const source of from) {
          for (const target of to) {
            parsed.edges.push({
              sourceId: `L${line}_${parsed.edges.length + 1}`,
              source,
              target,
              label,
              location: { line }
            })
          }
        }
      }
      join(left, right)
      if (link.twoWay) join(right, left)
      if (link.note !== undefined) {
        note(`Line ${line}: ${excerpt(`${left.join(" & ")} ${link.arrow} ${right.join(" & ")}`, 120)}: ${link.note}`)
      }
    }
    left = right
  }
}

const ignored = /^(classDef|class|style|linkStyle|click|direction|accTitle|accDescr)\b/

/** Read a flowchart into one page (or the problems that left nothing). */
export const readMermaid = (
  source: string,
  report: ReportBuilder,
  file?: string
): { pages?: ReadonlyArray<ChartPage>; problems: ReadonlyArray<ImportWarning> } => {
  let lines = source.replace(/\r\n?/g, "\n").split("\n")
  let offset = 0
  let title: string | undefined
  if (lines[0]?.trim() === "---") {
    const close = lines.findIndex((l, i) => i > 0 && l.trim() === "---")
    if (close > 0) {
      title = /^\s*title:\s*(.+)$/m.exec(lines.slice(1, close).join("\n"))?.[1]?.trim()
      lines = lines.slice(close + 1)
      offset = close + 1
    }
  }
  const parsed: Parsed = { nodes: new Map(), edges: [], subgraphs: new Map() }
  let header = false
  const stack: Array<string> = []
  let lastEdge: number | undefined
  let lastSubgraph: string | undefined
  const note = (line: number) => (message: string) => report.warn("unsupported-feature", message, { file, line })
  for (const { line, text: trimmed } of mermaidLines(lines, offset)) {
    const meta = /^%%\s*parley:(node|edge|subflow)\s+(.*)$/.exec(trimmed)
    if (meta !== null) {
      let value: unknown
      try {
        value = JSON.parse(meta[2]!)
      } catch {
        report.warn("unreadable", "A parley comment is not JSON: ignored", { file, line })
        continue
      }
      if (meta[1] === "node" && typeof value === "object" && value !== null) {
        const ref = (value as { ref?: unknown }).ref
        const node = typeof ref === "string" ? parsed.nodes.get(ref) : undefined
        if (node !== undefined) node.meta = value
      } else if (meta[1] === "edge" && lastEdge !== undefined) {
        for (let i = lastEdge; i < parsed.edges.length; i++) parsed.edges[i] = { ...parsed.edges[i]!, meta: value }
      } else if (meta[1] === "subflow" && lastSubgraph !== undefined) {
        parsed.subgraphs.get(lastSubgraph)!.meta = value
      }
      continue
    }
    const statements = splitStatements(trimmed.startsWith("%%") ? "" : trimmed)
    for (const statement of statements) {
      if (!header) {
        if (/^(graph|flowchart)(\s+(TB|TD|BT|RL|LR))?$/i.test(statement)) {
          header = true
          continue
        }
        if (/^(graph|flowchart)\b/i.test(statement)) {
          header = true
          const after = statement.replace(/^(graph|flowchart)(\s+(TB|TD|BT|RL|LR))?\s*/i, "")
          if (after.length > 0 && !readStatement(after, parsed, line, stack.at(-1), note(line))) {
            report.warn("unreadable", `Line ${line} could not be read: ${excerpt(after, 80)}`, { file, line })
          }
          continue
        }
        break
      }
      const subgraph = /^subgraph\s+(.+)$/s.exec(statement)
      if (subgraph !== null) {
        const spec = subgraph[1]!.trim()
        const named = /^([\p{L}\p{N}_-]+)\s*\[(.*)\]$/su.exec(spec)
        const id = named?.[1] ??
          (spec.startsWith("\"") ? `subgraph_${parsed.subgraphs.size + 1}` : spec.split(/\s+/)[0]!)
        parsed.subgraphs.set(id, { name: labelText(named?.[2] ?? spec) })
        stack.push(id)
        lastSubgraph = id
        continue
      }
      if (statement === "end") {
        stack.pop()
        continue
      }
      if (ignored.test(statement)) {
        if (statement.startsWith("click")) {
          report.warn("unsupported-feature", "A click action is not imported", { file, line })
        }
        continue
      }
      const before = parsed.edges.length
      if (!readStatement(statement, parsed, line, stack.at(-1), note(line))) {
        report.warn("unreadable", `Line ${line} could not be read: ${excerpt(statement.replace(/\s+/g, " "), 80)}`, {
          file,
          line
        })
        report.skip()
        continue
      }
      lastEdge = parsed.edges.length > before ? before : undefined
    }
  }
  if (!header) {
    return {
      problems: [{
        code: "unreadable",
        message: "Not a Mermaid flowchart: no `flowchart` or `graph` header (other diagram types are not imported)",
        ...(file === undefined ? {} : { location: { file } })
      }]
    }
  }
  if (parsed.nodes.size === 0) {
    return {
      problems: [{
        code: "unreadable",
        message: "The flowchart has no node",
        ...(file === undefined ? {} : { location: { file } })
      }]
    }
  }
  const subgraphMeta = [...parsed.subgraphs.entries()].filter(([, sg]) => sg.meta !== undefined)
  const flattened = [...parsed.subgraphs.keys()].filter((id) => parsed.subgraphs.get(id)!.meta === undefined)
  if (flattened.length > 0) {
    report.warn(
      "unsupported-feature",
      `Subgraphs ${flattened.slice(0, 10).join(", ")} are groups only: their nodes joined the flow`,
      { file }
    )
  }
  const toNode = ([id, node]: [string, Parsed["nodes"] extends Map<string, infer V> ? V : never]): ChartNode => ({
    sourceId: id,
    label: node.label,
    shape: node.shape,
    meta: node.meta,
    location: { ...(file === undefined ? {} : { file }), line: node.line, elementId: id }
  })
  const entries = [...parsed.nodes.entries()]
  const inSubflow = (id: string) => {
    const sg = parsed.nodes.get(id)?.subgraph
    return sg !== undefined && parsed.subgraphs.get(sg)?.meta !== undefined ? sg : undefined
  }
  const pages: Array<ChartPage> = [
    {
      sourceId: "main",
      name: title ?? "Flowchart",
      nodes: entries.filter(([id]) => inSubflow(id) === undefined).map(toNode),
      edges: parsed.edges.filter((e) => inSubflow(e.source!) === undefined)
    },
    ...subgraphMeta.map(([sgId, sg]): ChartPage => ({
      sourceId: sgId,
      name: sg.name,
      subflow: sg.meta,
      nodes: entries.filter(([id]) => inSubflow(id) === sgId).map(toNode),
      edges: parsed.edges.filter((e) => inSubflow(e.source!) === sgId)
    }))
  ]
  return { pages, problems: [] }
}

/** Import a Mermaid flowchart. */
export const importMermaid = (source: string, file?: string): Conversion => {
  const report = makeReportBuilder()
  const read = readMermaid(source, report, file)
  if (read.pages === undefined) return unreadable(read.problems)
  return finishDraft(chartToDraft(read.pages, 0, report), report)
}
