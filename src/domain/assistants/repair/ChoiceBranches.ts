/**
 * Repair of branches: several edges taking one route out of a node (a
 * diagram's "this step leads to these ones": unlabelled arrows out of a
 * message, or out of a decision, imported as one route) are a
 * `duplicate-route`, and the engine only ever followed the first. Deleting
 * the others would make a clean analysis mean a different flow, so the
 * branches become a choice the user makes: a choice question whose options
 * are named after where they lead (the edge's own label, else the target's
 * label, its text, or its id), each branch its `option` edge.
 *
 * A message with only text becomes that question itself (its text is the
 * prompt). Otherwise (any other node, or a message with an image, buttons or
 * a delay, which a question cannot carry) a new choice question placed under
 * the node takes the route ("Please choose one:"). The answer is stored in a
 * variable of its own (`choice_<node>`). At most 20 branches (a choice's
 * limit) are kept; any further ones stay duplicates, for `EdgeCleanup` to
 * drop. Edges to nodes that do not exist are not branches.
 */
import { excerpt } from "../../Excerpt.js"
import { routeKey, takes } from "../analysis/Outcomes.js"
import type { FlowEdge } from "../FlowEdge.js"
import type { FlowEdgeId } from "../FlowIds.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"
import type { ChoiceOption } from "../QuestionValidation.js"
import { freshEdgeId, freshId, freshNodeId } from "./FreshIds.js"

const MAX_OPTIONS = 20
const LABEL_MAX = 80
const LIMIT = 1_000_000
export const CHOICE_PROMPT = "Please choose one:"

/** What a branch to `target` is called on its button. */
const nameOf = (edge: FlowEdge, target: FlowNode | undefined): string => {
  const text = target === undefined
    ? undefined
    : target.type === "message"
    ? target.data.text
    : target.type === "question"
    ? target.data.prompt
    : target.type === "end" || target.type === "handoff"
    ? target.data.message
    : undefined
  const name = [edge.label, target?.label, text, target?.id ?? edge.target]
    .map((candidate) => candidate?.replace(/\s+/g, " ").trim())
    .find((candidate) => candidate !== undefined && candidate.length > 0)!
  return excerpt(name, LABEL_MAX)
}

/** Option values: the label reduced to a route key, unique within the question. */
const valueOf = (label: string, taken: Set<string>, position: number): string => {
  const base = label.normalize("NFKD").replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[^A-Za-z0-9]+/, "")
  const value = freshId(base.length > 0 ? base.toLowerCase() : `option_${position + 1}`, taken)
  taken.add(value)
  return value
}

/** Labels made unique: a second "Yes" is "Yes (2)". */
const uniqueLabel = (label: string, taken: Set<string>): string => {
  let candidate = label
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = ` (${n})`
    candidate = `${excerpt(label, LABEL_MAX - suffix.length)}${suffix}`
  }
  taken.add(candidate.toLowerCase())
  return candidate
}

/** Every variable name the flow sets, so the choice's own does not overwrite one. */
const variablesOf = (graph: FlowGraph): Set<string> => {
  const names = new Set<string>()
  for (const node of graph.nodes) {
    if (node.type === "question" || node.type === "set-variable") names.add(node.data.variable)
    if (node.type === "http" || node.type === "ai") names.add(node.data.resultVariable)
  }
  return names
}

/** A choice between `branches` (edges of one route out of `node`), in place of a text-only message or after the node. */
const choiceFor = (graph: FlowGraph, node: FlowNode, branches: ReadonlyArray<FlowEdge>): FlowGraph => {
  const nodes = new Map(graph.nodes.map((item) => [item.id, item]))
  const values = new Set<string>()
  const labels = new Set<string>()
  const options = branches.map((edge, position): ChoiceOption => {
    const label = uniqueLabel(nameOf(edge, nodes.get(edge.target)), labels)
    return { value: valueOf(label, values, position), label, synonyms: [] }
  })
  const variable = freshId(`choice_${node.id}`.replace(/[^A-Za-z0-9_]/g, "_"), variablesOf(graph))
  const inPlace = node.type === "message" && node.data.image === undefined && node.data.buttons.length === 0 &&
    node.data.delayMs === undefined
  const question: FlowNode = {
    id: inPlace ? node.id : freshNodeId(`${node.id}_choice`, new Set(nodes.keys())),
    type: "question",
    ...(inPlace && node.label !== undefined ? { label: node.label } : {}),
    position: inPlace ? node.position : { x: node.position.x, y: Math.min(node.position.y + 150, LIMIT) },
    ...(node.subflow === undefined ? {} : { subflow: node.subflow }),
    data: {
      prompt: node.type === "message" && inPlace ? node.data.text : CHOICE_PROMPT,
      variable,
      validation: { kind: "choice", options },
      maxAttempts: 3
    }
  }
  const option = new Map<FlowEdgeId, string>(branches.map((edge, position) => [edge.id, options[position]!.value]))
  const edges = graph.edges.map((edge): FlowEdge => {
    const value = option.get(edge.id)
    if (value === undefined) return edge
    const { id, label, target } = edge
    return { id, source: question.id, target, ...(label === undefined ? {} : { label }), kind: "option", option: value }
  })
  if (inPlace) {
    return { ...graph, nodes: graph.nodes.map((item) => (item.id === node.id ? question : item)), edges }
  }
  // The way in takes the branches' route, before every other edge of that route, so the engine follows it.
  const key = routeKey(branches[0]!)
  const { id: _id, label: _label, source: _source, target: _target, ...route } = branches[0]!
  const entry = {
    ...route,
    id: freshEdgeId(`${node.id}-${key.replace(" ", "-")}`, new Set(graph.edges.map((edge) => edge.id))),
    source: node.id,
    target: question.id
  } as FlowEdge
  const at = graph.edges.findIndex((edge) => edge.source === node.id && routeKey(edge) === key)
  return { ...graph, nodes: [...graph.nodes, question], edges: [...edges.slice(0, at), entry, ...edges.slice(at)] }
}

/** The graph with each route of `node` that several edges take turned into a choice between them. */
export const branchesToChoice = (graph: FlowGraph, node: FlowNode): FlowGraph => {
  const exists = new Set<string>(graph.nodes.map((item) => item.id))
  const groups = new Map<string, Array<FlowEdge>>()
  for (const edge of graph.edges) {
    if (edge.source !== node.id || !takes(node, edge) || !exists.has(edge.target)) continue
    const group = groups.get(routeKey(edge))
    if (group === undefined) groups.set(routeKey(edge), [edge])
    else group.push(edge)
  }
  let result = graph
  for (const branches of groups.values()) {
    if (branches.length < 2) continue
    const current = result.nodes.find((item) => item.id === node.id)!
    result = choiceFor(result, current, branches.slice(0, MAX_OPTIONS))
  }
  return result
}
