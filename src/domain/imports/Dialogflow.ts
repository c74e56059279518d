/**
 * Dialogflow ES agent exports: `agent.json`, `intents/<name>.json` with
 * `<name>_usersays_<lang>.json`, `entities/<name>.json` with
 * `<name>_entries_<lang>.json`. Intents keep their training phrases and their
 * parameters as slots (system entities as built-ins, developer entities as
 * lists, a regexp entity as one regex of its entries when Parley can run it:
 * Dialogflow's are RE2 patterns too). Contexts become the flow: intents
 * without input contexts hang off the main router; required parameters are
 * asked as questions, text responses sent as messages; an intent that sets a
 * context others need leads to a router of those follow-up intents.
 */
import { excerpt } from "../Excerpt.js"
import { patternRefusal } from "../patterns/UserPattern.js"
import type { ImportWarning } from "./Import.js"
import {
  type Conversion,
  type DraftEdge,
  type DraftIntent,
  type DraftNode,
  finishDraft,
  unreadable
} from "./ImportDraft.js"
import { makeReportBuilder, type ReportBuilder } from "./ImportReportBuilder.js"
import { intentNameFrom, labelOf, makeIdAllocator, variableNameFrom } from "./ImportText.js"

type Json = Record<string, any>

const builtins: Record<string, string> = {
  "@sys.number": "number",
  "@sys.number-integer": "number",
  "@sys.number-sequence": "number",
  "@sys.cardinal": "number",
  "@sys.email": "email",
  "@sys.date": "datetime",
  "@sys.date-time": "datetime",
  "@sys.time": "datetime",
  "@sys.date-period": "datetime",
  "@sys.phone-number": "phone",
  "@sys.url": "url"
}

const readJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const base = (path: string) => path.split("/").at(-1)!
const arr = (v: unknown): Array<any> => (Array.isArray(v) ? v : [])
/** The objects of a list: an export edited by hand may hold nulls and scalars where objects belong. */
const objects = (v: unknown): Array<Json> =>
  arr(v).filter((item): item is Json => typeof item === "object" && item !== null && !Array.isArray(item))

interface Agent {
  intents: Array<{ json: Json; file: string; usersays: Array<Json> }>
  entities: Map<string, Array<{ value: string; synonyms: Array<string> }>>
  /** Regexp entities by name: their entries as one pattern. */
  patterns: Map<string, string>
  language: string
}

/** A regexp entity's entries as one pattern (any of them), or why it cannot be one. */
const entityPattern = (values: ReadonlyArray<{ readonly value: string }>): { pattern: string } | { reason: string } => {
  const pattern = values.map(({ value }) => values.length === 1 ? value : `(?:${value})`).join("|")
  if (pattern.length === 0) return { reason: "it has no entries" }
  if (pattern.length > 500) return { reason: `its entries make a pattern of ${pattern.length} characters, at most 500` }
  const refusal = patternRefusal(pattern)
  return refusal === undefined ? { pattern } : { reason: refusal }
}

const readAgent = (files: Readonly<Record<string, string>>, report: ReportBuilder): Agent | ImportWarning[] => {
  const agentFile = Object.keys(files).find((p) => base(p) === "agent.json")
  const agent = agentFile === undefined ? undefined : readJson(files[agentFile]!) as Json | undefined
  const language = typeof agent?.["language"] === "string" ? agent["language"] : "en"
  const result: Agent = { intents: [], entities: new Map(), patterns: new Map(), language }
  const usersays = new Map<string, Array<Json>>()
  const entries = new Map<string, Array<Json>>()
  const entityNames: Array<{ json: Json; file: string }> = []
  for (const [path, text] of Object.entries(files)) {
    const name = base(path)
    if (!name.endsWith(".json") || name === "agent.json" || name === "package.json") continue
    const json = readJson(text)
    if (json === undefined) {
      report.warn("unreadable", `${path} is not JSON: left out`, { file: path })
      report.skip()
      continue
    }
    const says = /^(.*)_usersays_([\w-]+)\.json$/.exec(name)
    const entry = /^(.*)_entries_([\w-]+)\.json$/.exec(name)
    if (says !== null) {
      if (says[2] === language || !usersays.has(says[1]!)) usersays.set(says[1]!, arr(json))
    } else if (entry !== null) {
      if (entry[2] === language || !entries.has(entry[1]!)) entries.set(entry[1]!, arr(json))
    } else if (/(^|\/)entities\//.test(path)) {
      entityNames.push({ json: json as Json, file: path })
    } else if (
      typeof (json as Json)["name"] === "string" &&
      ((json as Json)["responses"] !== undefined || (json as Json)["userSays"] !== undefined)
    ) {
      result.intents.push({ json: json as Json, file: path, usersays: [] })
    } else {
      report.warn("unsupported-element", `${path} is neither an intent nor an entity: left out`, { file: path })
      report.skip()
    }
  }
  for (const intent of result.intents) {
    const stem = base(intent.file).replace(/\.json$/, "")
    intent.usersays = usersays.get(stem) ?? arr(intent.json["userSays"])
  }
  for (const { file, json } of entityNames) {
    const stem = base(file).replace(/\.json$/, "")
    const values = objects(entries.get(stem) ?? json["entries"]).flatMap((e) => {
      const value = String(e["value"] ?? "").trim()
      return value.length === 0 ? [] : [{
        value,
        synonyms: arr(e["synonyms"]).map(String).map((s) => s.trim()).filter((s) => s.length > 0 && s !== value).slice(
          0,
          200
        )
      }]
    })
    const entity = String(json["name"] ?? stem)
    if (json["isRegexp"] === true) {
      const regex = entityPattern(values)
      if ("pattern" in regex) {
        result.patterns.set(entity, regex.pattern)
      } else {
        const why = `Entity ${entity} is a regexp entity Parley cannot run (${regex.reason})`
        report.warn("unsupported-feature", `${why}: its entries are kept as values`, { file })
      }
    }
    result.entities.set(entity, values)
  }
  if (result.intents.length === 0) {
    return [{ code: "unreadable", message: "No Dialogflow intent (intents/<name>.json) in the files" }]
  }
  return result
}

export const importDialogflow = (files: Readonly<Record<string, string>>): Conversion => {
  const report = makeReportBuilder()
  const agent = readAgent(files, report)
  if (Array.isArray(agent)) return unreadable(agent)
  const allocate = makeIdAllocator("n")
  const edgeId = makeIdAllocator("e")
  const nodes: Array<DraftNode> = []
  const edges: Array<DraftEdge> = []
  const intents: Array<DraftIntent> = []
  const start = allocate("start")
  const root = allocate("router")
  nodes.push({ id: start, type: "start", label: "Start", data: {} })
  const routers = new Map<string, Set<string>>([[root, new Set()]])

  const info = agent.intents.map(({ file, json, usersays }) => {
    const name = intentNameFrom(String(json["name"]))
    const response = objects(json["responses"])[0]
    const inputs = arr(json["contexts"]).filter((c): c is string => typeof c === "string")
    const outputs = objects(response?.["affectedContexts"])
      .filter((c) => typeof c["name"] === "string" && (typeof c["lifespan"] === "number" ? c["lifespan"] > 0 : true))
      .map((c) => String(c["name"]))
    const params = objects(response?.["parameters"]).filter((p) => typeof p["name"] === "string")
    const slots = params.flatMap((p) => {
      const type = String(p["dataType"] ?? "")
      if (type === "") return []
      const slotName = intentNameFrom(String(p["name"]), "param")
      if (builtins[type] !== undefined) {
        return [{ name: slotName, entity: { kind: builtins[type] }, required: p["required"] === true }]
      }
      const pattern = agent.patterns.get(type.replace(/^@/, ""))
      if (pattern !== undefined) {
        return [{ name: slotName, entity: { kind: "regex", pattern }, required: p["required"] === true }]
      }
      const values = agent.entities.get(type.replace(/^@/, ""))
      if (values === undefined || values.length === 0) {
        report.warn(
          "unsupported-feature",
          `Intent ${name}: parameter ${p["name"]} of ${type} has no importable entity`,
          { file }
        )
        return []
      }
      if (values.length > 5000) {
        report.warn("truncated", `Entity ${type}: ${values.length} entries, the first 5,000 kept`, { file })
      }
      return [{
        name: slotName,
        entity: { kind: "list", values: values.slice(0, 5000) },
        required: p["required"] === true
      }]
    })
    intents.push({
      name,
      utterances: objects(usersays).map((u) =>
        objects(u["data"]).map((part) => typeof part["text"] === "string" ? part["text"] : "").join("")
      ),
      slots
    })
    const messages = objects(response?.["messages"])
    const speech = messages.filter((m) => (m["type"] === 0 || m["type"] === "0") && m["platform"] === undefined)
      .flatMap((m) => (Array.isArray(m["speech"]) ? m["speech"] : [m["speech"]])).filter((s: unknown) =>
        typeof s === "string" && s.trim().length > 0
      ) as Array<string>
    if (messages.some((m) => m["platform"] !== undefined || (m["type"] !== 0 && m["type"] !== "0"))) {
      report.warn("unsupported-feature", `Intent ${name}: rich or platform-specific responses are not imported`, {
        file
      })
    }
    const events = objects(json["events"]).map((e) => String(e["name"] ?? ""))
    return { name, file, json, inputs, outputs, params, speech, events, fallback: json["fallbackIntent"] === true }
  })

  const pathFor = (intent: (typeof info)[number], from: string, route: Record<string, string>) => {
    let cursor = from
    let currentRoute = route
    /** Add a step after the cursor; `onward` is how the flow leaves it (a question once answered, a message next). */
    const push = (node: DraftNode, onward: Record<string, string>) => {
      nodes.push(node)
      edges.push({ id: edgeId(), source: cursor, target: node.id, route: currentRoute })
      cursor = node.id
      currentRoute = onward
    }
    for (const p of intent.params.filter((p) => p["required"] === true)) {
      const prompt = objects(p["prompts"]).find((x) => typeof x["value"] === "string")?.["value"] as string | undefined
      const type = builtins[String(p["dataType"])]
      push({
        id: allocate(`ask_${p["name"]}`),
        type: "question",
        label: labelOf(`${intent.name}: ${p["name"]}`),
        data: {
          prompt: excerpt(prompt ?? `What is the ${p["name"]}?`, 4000),
          variable: variableNameFrom(String(p["name"])),
          validation: { kind: type === "number" ? "number" : type === "email" ? "email" : "text" }
        }
      }, { kind: "answered" })
    }
    const text = intent.speech[0]?.replace(/\$([A-Za-z_][A-Za-z0-9_]*)(\.original)?/g, "{{$1}}").replace(
      /#[\w-]+\.([A-Za-z_][A-Za-z0-9_]*)/g,
      "{{$1}}"
    )
    if (text !== undefined) {
      push({
        id: allocate(intent.name),
        type: "message",
        label: labelOf(intent.name),
        data: { text: excerpt(text, 4000) }
      }, { kind: "next" })
    } else if (intent.json["webhookUsed"] === true) {
      report.warn(
        "unsupported-feature",
        `Intent ${intent.name} answers through a fulfilment webhook, which is not imported`,
        { file: intent.file }
      )
      push({
        id: allocate(intent.name),
        type: "message",
        label: labelOf(intent.name),
        data: { text: `(${intent.name}: answered by a webhook in Dialogflow)` }
      }, { kind: "next" })
    }
    return { end: cursor, route: currentRoute }
  }

  const byContext = new Map<string, Array<(typeof info)[number]>>()
  for (const intent of info) {
    for (const ctx of intent.inputs) byContext.set(ctx, [...(byContext.get(ctx) ?? []), intent])
  }
  const produced = new Set(info.flatMap((i) => i.outputs))
  const placed = new Set<string>()

  const place = (intent: (typeof info)[number], router: string, depth: number) => {
    if (placed.has(intent.name) || depth > 20) return
    placed.add(intent.name)
    routers.get(router)!.add(intent.name)
    const { end, route } = pathFor(intent, router, { kind: "intent", intent: intent.name })
    const followUps = intent.outputs.flatMap((ctx) => byContext.get(ctx) ?? []).filter((f) => !placed.has(f.name))
    if (followUps.length === 0) {
      // An intent with no step of its own goes back to the main router when matched.
      edges.push({ id: edgeId(), source: end, target: root, route })
      return
    }
    const child = allocate(`${intent.name}_followup`)
    nodes.push({ id: child, type: "intent-router", label: labelOf(`After ${intent.name}`), data: {} })
    routers.set(child, new Set())
    edges.push({ id: edgeId(), source: end, target: child, route })
    for (const f of followUps) place(f, child, depth + 1)
    edges.push({ id: edgeId(), source: child, target: root, route: { kind: "fallback" } })
  }

  const welcome = info.find((i) => i.events.includes("WELCOME") && i.inputs.length === 0)
  if (welcome !== undefined) {
    placed.add(welcome.name)
    const { end, route } = pathFor(welcome, start, { kind: "next" })
    edges.push({ id: edgeId(), source: end, target: root, route })
  } else {
    edges.push({ id: edgeId(), source: start, target: root, route: { kind: "next" } })
  }
  const fallback = info.find((i) => i.fallback && i.inputs.length === 0)
  for (const intent of info) {
    if (intent === fallback || intent === welcome) continue
    if (intent.inputs.length === 0 || !intent.inputs.some((c) => produced.has(c))) {
      if (intent.inputs.length > 0) {
        report.warn(
          "unresolved-reference",
          `Intent ${intent.name} needs contexts no intent sets: it hangs off the main router`,
          { file: intent.file }
        )
      }
      place(intent, root, 0)
    }
  }
  for (const intent of info) {
    if (!placed.has(intent.name) && intent !== fallback && intent !== welcome) place(intent, root, 0)
  }
  if (fallback !== undefined) {
    placed.add(fallback.name)
    const { end, route } = pathFor(fallback, root, { kind: "fallback" })
    if (end !== root) edges.push({ id: edgeId(), source: end, target: root, route })
  }
  nodes.splice(1, 0, { id: root, type: "intent-router", label: "Main menu", data: {} })
  const finalNodes = nodes.flatMap((node) => {
    const routed = routers.get(node.id)
    if (routed === undefined) return [node]
    const names = [...routed].length > 0 ? [...routed] : intents.map((i) => i.name)
    return names.length === 0 ? [] : [{ ...node, data: { intents: names.slice(0, 200) } }]
  })
  return finishDraft({ nodes: finalNodes, edges, subflows: [], intents }, report)
}
