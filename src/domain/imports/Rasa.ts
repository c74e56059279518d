/**
 * Rasa projects (2.x/3.x YAML): `nlu` intents with their examples (entity
 * annotations `[text](entity)` and `[text]{"entity": ...}` become slots),
 * synonyms, regexes (when Parley can run them: see `UserPattern`; otherwise
 * the entity's values) and lookup tables as entity definitions; `stories` and
 * `rules` merged into one tree of paths from an intent router; domain
 * `responses` as messages (see `RasaResponses` for what of a response is
 * kept and what is reported) and `forms` as questions of their required slots.
 * Custom actions, slot events, checkpoints and CALM flows are reported.
 */
import { parse as parseYaml } from "yaml"
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
import { makeResponseReader, type RasaResponse } from "./RasaResponses.js"

type Yaml = Record<string, unknown>

const isObject = (value: unknown): value is Yaml => typeof value === "object" && value !== null && !Array.isArray(value)
const list = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/** The `- example` lines of an `examples: |` block. */
const examplesOf = (value: unknown): ReadonlyArray<string> =>
  typeof value === "string"
    ? value.split("\n").map((line) => line.trim()).filter((line) => line.startsWith("- ")).map((line) =>
      line.slice(2).trim()
    )
    : list(value).flatMap((item) =>
      isObject(item)
        ? (typeof item["text"] === "string" ? [item["text"]] : [])
        : item === null || item === undefined
        ? []
        : [String(item)]
    )

const ANNOTATION = /\[([^\]]+)\](?:\(([^)]+)\)|(\{[^}]*\}))/g

/** An example without its annotations, and the entities it names with their values. */
const annotated = (example: string) => {
  const entities: Array<{ entity: string; value: string }> = []
  const text = example.replace(ANNOTATION, (_, shown: string, simple?: string, json?: string) => {
    if (simple !== undefined) {
      const [entity, value] = simple.split(":")
      entities.push({ entity: entity!.trim(), value: (value ?? shown).trim() })
    } else if (json !== undefined) {
      try {
        const parsed = JSON.parse(json) as { entity?: unknown; value?: unknown }
        if (typeof parsed.entity === "string") {
          entities.push({ entity: parsed.entity, value: typeof parsed.value === "string" ? parsed.value : shown })
        }
      } catch {
        // An unreadable annotation keeps its text only.
      }
    }
    return shown
  })
  return { text, entities }
}

interface Project {
  nlu: Array<{ item: Yaml; file: string }>
  stories: Array<{ item: Yaml; file: string; kind: "story" | "rule" }>
  responses: Map<string, RasaResponse>
  forms: Map<string, ReadonlyArray<string>>
  slots: Map<string, Yaml>
  domainIntents: Array<string>
}

/**
 * The most YAML a Rasa import reads, in characters over all its files. The YAML parser reads about
 * 20,000 to 40,000 items a second on one core and a node parses on its event loop, so the whole
 * import limit (10 MiB) could stall a node's conversations (and its cluster heartbeats) for half a
 * minute; 2 Mi characters is about a second, and several times the largest real project we know.
 */
export const RASA_YAML_CHARACTERS = 2 * 1024 * 1024

const readProject = (files: Readonly<Record<string, string>>, report: ReportBuilder): Project | ImportWarning[] => {
  const yamlCharacters = Object.entries(files)
    .filter(([file]) => /\.ya?ml$/i.test(file))
    .reduce((sum, [, text]) => sum + text.length, 0)
  if (yamlCharacters > RASA_YAML_CHARACTERS) {
    return [{
      code: "unreadable",
      message: `The project's YAML is ${yamlCharacters} characters; a Rasa import reads at most ${RASA_YAML_CHARACTERS}`
    }]
  }
  const project: Project = {
    nlu: [],
    stories: [],
    responses: new Map(),
    forms: new Map(),
    slots: new Map(),
    domainIntents: []
  }
  const problems: Array<ImportWarning> = []
  let recognised = 0
  for (const [file, text] of Object.entries(files)) {
    if (!/\.ya?ml$/i.test(file)) {
      report.warn("unsupported-element", `${file} is not YAML: left out`, { file })
      report.skip()
      continue
    }
    let doc: unknown
    try {
      doc = parseYaml(text, { maxAliasCount: 100 })
    } catch (error) {
      const warning: ImportWarning = {
        code: "unreadable",
        message: `${file}: ${String((error as Error).message).split("\n")[0]}`,
        location: { file }
      }
      problems.push(warning)
      report.warn(warning.code, warning.message, warning.location)
      continue
    }
    if (!isObject(doc)) {
      report.warn("unsupported-element", `${file} holds no Rasa data`, { file })
      continue
    }
    if (/(^|\/)tests?\//.test(file)) {
      report.warn("unsupported-element", `${file} holds test stories, which are not imported`, { file })
      report.skip()
      continue
    }
    let known = false
    for (const item of list(doc["nlu"]).filter(isObject)) {
      project.nlu.push({ item, file })
      known = true
    }
    for (const kind of ["story", "rule"] as const) {
      for (const item of list(doc[kind === "story" ? "stories" : "rules"]).filter(isObject)) {
        project.stories.push({ item, file, kind })
        known = true
      }
    }
    const responses = doc["responses"] ?? doc["templates"]
    if (isObject(responses)) {
      known = true
      for (const [name, variants] of Object.entries(responses)) {
        const objects = list(variants).filter(isObject)
        if (objects.length > 0) project.responses.set(name, { variants: objects, file })
      }
    }
    if (isObject(doc["forms"])) {
      known = true
      for (const [name, form] of Object.entries(doc["forms"])) {
        const required = isObject(form) ? list(form["required_slots"]).map(String) : []
        project.forms.set(name, required)
      }
    } else if (Array.isArray(doc["forms"])) {
      report.warn("unsupported-feature", `${file}: forms without required_slots (Rasa 1.x) have no questions to ask`, {
        file
      })
      for (const name of doc["forms"]) project.forms.set(String(name), [])
    }
    if (isObject(doc["slots"])) {
      known = true
      for (const [name, slot] of Object.entries(doc["slots"])) project.slots.set(name, isObject(slot) ? slot : {})
    }
    for (const intent of list(doc["intents"])) {
      known = true
      project.domainIntents.push(isObject(intent) ? String(Object.keys(intent)[0]) : String(intent))
    }
    if (doc["flows"] !== undefined) {
      report.warn("unsupported-feature", `${file}: CALM flows are not imported (stories and rules are)`, { file })
      report.skip()
      known = true
    }
    if (doc["pipeline"] !== undefined || doc["policies"] !== undefined || doc["recipe"] !== undefined) known = true
    if (known) recognised++
    else report.warn("unsupported-element", `${file} holds nothing Rasa imports from`, { file })
  }
  if (recognised === 0) {
    return problems.length > 0
      ? problems
      : [{ code: "unreadable", message: "No Rasa nlu, stories, rules or domain data in the files" }]
  }
  return project
}

const nluOf = (project: Project, report: ReportBuilder): Array<DraftIntent> => {
  const examples = new Map<string, Array<string>>()
  const entityValues = new Map<string, Set<string>>()
  const entityOfIntent = new Map<string, Set<string>>()
  const synonyms = new Map<string, Array<string>>()
  const regexes = new Map<string, string>()
  const lookups = new Map<string, Array<string>>()
  for (const { item, file } of project.nlu) {
    if (typeof item["intent"] === "string") {
      const name = intentNameFrom(item["intent"])
      for (const example of examplesOf(item["examples"])) {
        const { entities, text } = annotated(example)
        const known = examples.get(name)
        if (known === undefined) examples.set(name, [text])
        else known.push(text)
        for (const { entity, value } of entities) {
          entityValues.set(entity, (entityValues.get(entity) ?? new Set()).add(value))
          entityOfIntent.set(name, (entityOfIntent.get(name) ?? new Set()).add(entity))
        }
      }
    } else if (typeof item["synonym"] === "string") {
      synonyms.set(item["synonym"], examplesOf(item["examples"]) as Array<string>)
    } else if (typeof item["regex"] === "string") {
      const first = examplesOf(item["examples"])[0]
      if (first !== undefined) regexes.set(item["regex"], first)
    } else if (typeof item["lookup"] === "string") {
      lookups.set(item["lookup"], examplesOf(item["examples"]) as Array<string>)
    } else {
      report.warn("unsupported-element", `An nlu item that is not an intent, synonym, regex or lookup was left out`, {
        file
      })
      report.skip()
    }
  }
  const definition = (entity: string) => {
    const regex = regexes.get(entity)
    const refusal = regex === undefined ? undefined : regex.length > 500
      ? `it has ${regex.length} characters, at most 500`
      : patternRefusal(regex)
    if (regex !== undefined && refusal === undefined) return { kind: "regex", pattern: regex }
    if (refusal !== undefined) {
      report.warn(
        "unsupported-feature",
        `The regex of entity ${entity} cannot be used (${refusal}): its values are kept`
      )
    }
    const values = [...new Set([...(lookups.get(entity) ?? []), ...(entityValues.get(entity) ?? [])])]
      .map((v) => v.trim()).filter((v) => v.length > 0)
    if (values.length === 0) return undefined
    if (values.length > 5000) report.warn("truncated", `Entity ${entity}: only 5,000 values kept`)
    return {
      kind: "list",
      values: values.slice(0, 5000).map((value) => ({
        value,
        synonyms: (synonyms.get(value) ?? []).filter((s) => s.trim().length > 0)
      }))
    }
  }
  const intents: Array<DraftIntent> = []
  const names = new Set([...examples.keys(), ...project.domainIntents.map((n) => intentNameFrom(n))])
  for (const name of names) {
    const slots = [...(entityOfIntent.get(name) ?? [])].flatMap((entity) => {
      const entityDefinition = definition(entity)
      return entityDefinition === undefined ? [] : [{ name: intentNameFrom(entity), entity: entityDefinition }]
    })
    intents.push({ name, utterances: examples.get(name) ?? [], slots })
  }
  return intents
}

/** Stories and rules as one tree of paths from the main router. */
const flowOf = (project: Project, intents: ReadonlyArray<DraftIntent>, report: ReportBuilder) => {
  const allocate = makeIdAllocator("n")
  const edgeId = makeIdAllocator("e")
  const nodes: Array<DraftNode> = []
  const edges: Array<DraftEdge> = []
  const byKey = new Map<string, string>()
  const routerIntents = new Map<string, Set<string>>()
  const start = allocate("start")
  const root = allocate("router")
  nodes.push({ id: start, type: "start", label: "Start", data: {} })
  nodes.push({ id: root, type: "intent-router", label: "Main menu", data: {} })
  routerIntents.set(root, new Set())
  edges.push({ id: edgeId(), source: start, target: root, route: { kind: "next" } })

  const types = new Map<string, string>()
  /** The route out of a step that is not a router: a question is left once answered. */
  const onward = (from: string): Record<string, string> =>
    types.get(from) === "question" ? { kind: "answered" } : { kind: "next" }
  const step = (key: string, from: string, route: Record<string, string>, make: (id: string) => DraftNode) => {
    const existing = byKey.get(key)
    if (existing !== undefined) return existing
    const node = make(allocate(key.split("|").at(-1)))
    const id = node.id
    byKey.set(key, id)
    types.set(id, node.type)
    nodes.push(node)
    edges.push({ id: edgeId(), source: from, target: id, route })
    return id
  }
  const responses = makeResponseReader(project.responses, report)
  const responseMessage = (action: string, location: ImportWarning["location"]) => {
    const message = responses.message(action)
    if (message !== undefined) return message
    report.warn(
      "unresolved-reference",
      `Response ${action} is not in the domain: its name stands in for its text`,
      location
    )
    return { text: action, buttons: [] }
  }

  for (const { file, item, kind } of project.stories) {
    const title = String(item[kind] ?? kind)
    const location = { file, elementId: excerpt(title, 200) }
    if (item["condition"] !== undefined || item["wait_for_user_input"] === false) {
      report.warn(
        "unsupported-feature",
        `${kind} "${excerpt(title, 60)}": its conditions are not imported; its steps are`,
        location
      )
    }
    let cursor = item["conversation_start"] === true ? start : root
    let pending: Array<string> = []
    for (const raw of list(item["steps"])) {
      if (!isObject(raw)) continue
      const intentNames = typeof raw["intent"] === "string"
        ? [raw["intent"]]
        : Array.isArray(raw["or"])
        ? raw["or"].filter(isObject).map((alt) => alt["intent"]).filter((i): i is string => typeof i === "string")
        : []
      if (intentNames.length > 0) {
        if (!routerIntents.has(cursor)) {
          const from = cursor
          const pendingRoute = pending
          cursor = step(
            `${cursor}>router`,
            from,
            pendingRoute.length > 0 ? { kind: "intent", intent: pendingRoute[0]! } : onward(from),
            (id) => ({
              id,
              type: "intent-router",
              label: "What next?",
              data: {}
            })
          )
          routerIntents.set(cursor, routerIntents.get(cursor) ?? new Set())
        }
        pending = intentNames.map((n) => intentNameFrom(n))
        continue
      }
      const action = typeof raw["action"] === "string" ? raw["action"] : undefined
      if (action === undefined) {
        if (raw["active_loop"] === undefined && raw["user"] === undefined) {
          const what = raw["slot_was_set"] !== undefined
            ? "slot_was_set"
            : raw["checkpoint"] !== undefined
            ? "checkpoint"
            : Object.keys(raw)[0] ?? "step"
          report.warn(
            "unsupported-feature",
            `${kind} "${excerpt(title, 60)}": a ${what} step is not imported`,
            location
          )
        }
        continue
      }
      if (action === "action_listen") continue
      const fromRouter = routerIntents.has(cursor)
      if (fromRouter && pending.length === 0) {
        report.warn(
          "unsupported-feature",
          `${kind} "${excerpt(title, 60)}": ${action} without an intent before it is not imported`,
          location
        )
        continue
      }
      const routeFor = (intent: string | undefined) =>
        intent === undefined
          ? onward(cursor)
          : intent === "nlu_fallback"
          ? { kind: "fallback" }
          : { kind: "intent", intent }
      const intentsHere = fromRouter ? pending : [undefined]
      for (const intent of intentsHere) {
        if (intent !== undefined && intent !== "nlu_fallback") routerIntents.get(cursor)!.add(intent)
      }
      const prefix = `${cursor}|${intentsHere[0] ?? ""}`
      let made: string | undefined
      if (project.forms.has(action)) {
        const slots = project.forms.get(action)!
        if (slots.length === 0) {
          report.warn("unsupported-feature", `Form ${action} names no required slots: no questions were made`, location)
          continue
        }
        let from = cursor
        let route: Record<string, string> = routeFor(intentsHere[0])
        slots.forEach((slot, i) => {
          const prompt = responses.prompt(`utter_ask_${action}_${slot}`) ?? responses.prompt(`utter_ask_${slot}`) ??
            `What is your ${slot.replace(/_/g, " ")}?`
          const slotInfo = project.slots.get(slot)
          const type = String(slotInfo?.["type"] ?? "text")
          const values = list(slotInfo?.["values"]).map(String).filter((v) =>
            /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(v)
          )
          const validation = type === "float"
            ? { kind: "number" }
            : type === "categorical" && values.length > 0
            ? { kind: "choice", options: values.slice(0, 20).map((value) => ({ value, label: excerpt(value, 80) })) }
            : { kind: "text" }
          const id = step(`${prefix}|${action}#${i}|ask_${slot}`, from, route, (nid) => ({
            id: nid,
            type: "question",
            label: labelOf(`${action}: ${slot}`),
            data: { prompt: excerpt(prompt, 4000), variable: variableNameFrom(slot), validation }
          }))
          for (const intent of intentsHere.slice(1)) {
            if (i === 0 && intent !== undefined) {
              edges.push({ id: edgeId(), source: cursor, target: id, route: routeFor(intent) })
            }
          }
          from = id
          route = { kind: "answered" }
          made = id
        })
      } else if (action.startsWith("utter_")) {
        const data = responseMessage(action, location)
        made = step(`${prefix}|${action}`, cursor, routeFor(intentsHere[0]), (id) => ({
          id,
          type: "message",
          label: labelOf(action),
          data
        }))
        for (const intent of intentsHere.slice(1)) {
          edges.push({ id: edgeId(), source: cursor, target: made, route: routeFor(intent) })
        }
      } else {
        report.warn(
          "unsupported-element",
          `${kind} "${excerpt(title, 60)}": custom action ${action} is not imported`,
          location
        )
        report.skip()
        continue
      }
      cursor = made!
      pending = []
    }
  }
  // Each path's last step returns to the main router.
  const sources = new Set(edges.map((edge) => edge.source))
  for (const node of nodes) {
    if (node.id !== root && !routerIntents.has(node.id) && !sources.has(node.id)) {
      edges.push({
        id: edgeId(),
        source: node.id,
        target: root,
        route: node.type === "question" ? { kind: "answered" } : { kind: "next" }
      })
    }
  }
  const finalNodes = nodes.flatMap((node) => {
    if (!routerIntents.has(node.id)) return [node]
    const routed = [...routerIntents.get(node.id)!]
    const names = routed.length > 0 ? routed : intents.map((intent) => intent.name)
    if (names.length === 0) return []
    return [{ ...node, data: { intents: names.slice(0, 200) } }]
  })
  return { nodes: finalNodes, edges }
}

export const importRasa = (files: Readonly<Record<string, string>>): Conversion => {
  const report = makeReportBuilder()
  const project = readProject(files, report)
  if (Array.isArray(project)) return unreadable(project)
  const intents = nluOf(project, report)
  const { edges, nodes } = flowOf(project, intents, report)
  return finishDraft({
    nodes: nodes.length > 2 ? nodes : intents.length > 0 ? nodes : [],
    edges,
    subflows: [],
    intents
  }, report)
}
