/**
 * What a graph declares for its expressions to read: the trigger's inputs
 * with their types (the union over every trigger, so a second trigger is
 * reported once, as itself, and not again at every read), and the variables
 * its nodes write.
 */
import type { InputVariableType } from "../TriggerData.js"
import { variablesSetBy } from "./Exits.js"
import type { Topology } from "./Topology.js"

export interface Declarations {
  /** Whether there is a trigger whose inputs can be known. */
  readonly hasTrigger: boolean
  /** The declared inputs; a name declared twice with two types has no type. */
  readonly inputs: ReadonlyMap<string, InputVariableType | undefined>
  /** Each variable some node writes, with the nodes that write it, in graph order. */
  readonly variables: ReadonlyMap<string, ReadonlyArray<string>>
}

export const declarationsOf = (topology: Topology): Declarations => {
  const inputs = new Map<string, InputVariableType | undefined>()
  for (const trigger of topology.triggers) {
    if (trigger.type !== "trigger") continue
    for (const input of trigger.data.inputs) {
      inputs.set(input.name, inputs.has(input.name) && inputs.get(input.name) !== input.type ? undefined : input.type)
    }
  }
  const variables = new Map<string, Array<string>>()
  for (const node of topology.nodes) {
    for (const name of variablesSetBy(node)) {
      const writers = variables.get(name)
      if (writers === undefined) variables.set(name, [node.id])
      else writers.push(node.id)
    }
  }
  return { hasTrigger: topology.triggers.length > 0, inputs, variables }
}
