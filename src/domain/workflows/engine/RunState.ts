/**
 * The state of a run between node executions: its input, its variables, each
 * node's last output and the outputs emitted so far. Immutable: a parallel
 * branch starts from its parent's state and what it changed is applied back
 * in the order of the branches' edges, whichever finished first.
 */
import type { JsonObject, JsonValue } from "../../Json.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import type { WorkflowOutput } from "../WorkflowSimTurn.js"
import type { NodeResult } from "./NodeResult.js"
import type { WorkflowDocument } from "./WorkflowExpressions.js"

/** Where a run stands. */
export interface RunState {
  readonly input: JsonValue
  readonly vars: JsonObject
  readonly nodes: JsonObject
  /** What output nodes emitted, in order. */
  readonly outputs: ReadonlyArray<WorkflowOutput>
}

/** The loop iteration a walk is in, as expressions read it. */
export interface LoopItem {
  readonly item: JsonValue
  readonly index: number
}

/** The document expressions read in this state. */
export const documentOf = (state: RunState, loop: LoopItem | undefined): WorkflowDocument =>
  loop === undefined
    ? { input: state.input, vars: state.vars, nodes: state.nodes }
    : { input: state.input, vars: state.vars, nodes: state.nodes, item: loop.item, index: loop.index }

const outputOf = (node: WorkflowNode, output: JsonValue): WorkflowOutput | undefined => {
  if (node.type !== "output") return undefined
  return node.data.format === "text"
    ? { nodeId: node.id, format: "text", text: typeof output === "string" ? output : JSON.stringify(output) }
    : { nodeId: node.id, format: "json", value: output }
}

/** The state after a node execution's result. */
export const applyResult = (state: RunState, node: WorkflowNode, result: NodeResult): RunState => {
  if (result.output === undefined && result.writes === undefined) return state
  const emitted = result.output === undefined ? undefined : outputOf(node, result.output)
  return {
    input: state.input,
    vars: result.writes === undefined ? state.vars : { ...state.vars, ...result.writes },
    nodes: result.output === undefined ? state.nodes : { ...state.nodes, [node.id]: result.output },
    outputs: emitted === undefined ? state.outputs : [...state.outputs, emitted]
  }
}

/** What a branch changed of the state it started from. */
export interface Changes {
  readonly vars: JsonObject
  readonly nodes: JsonObject
  readonly outputs: ReadonlyArray<WorkflowOutput>
}

// States only ever replace a value to change it, so a value that is not the
// very one the branch started with was written by the branch.
const changed = (before: JsonObject, after: JsonObject): JsonObject =>
  Object.fromEntries(
    Object.entries(after).filter(([name, value]) => !Object.hasOwn(before, name) || before[name] !== value)
  )

/** What `after` changed of `before`. */
export const changesSince = (before: RunState, after: RunState): Changes => ({
  vars: changed(before.vars, after.vars),
  nodes: changed(before.nodes, after.nodes),
  outputs: after.outputs.slice(before.outputs.length)
})

/** `state` with each branch's changes applied, in order (a later branch's write wins). */
export const applyChanges = (state: RunState, all: ReadonlyArray<Changes>): RunState =>
  all.reduce<RunState>((current, changes) => ({
    input: current.input,
    vars: { ...current.vars, ...changes.vars },
    nodes: { ...current.nodes, ...changes.nodes },
    outputs: [...current.outputs, ...changes.outputs]
  }), state)
