/** A flow and its intents as a Parley document (`format: "parley"`), pretty-printed JSON. */
import type { Assistant } from "../assistants/Assistant.js"
import type { Flow } from "../assistants/Flow.js"
import type { Intent } from "../assistants/Intent.js"
import type { ParleyDocument } from "../assistants/ParleyDocument.js"

export const parleyDocumentOf = (
  assistant: Assistant,
  flow: Pick<Flow, "nodes" | "edges" | "subflows">,
  intents: ReadonlyArray<Intent>
): ParleyDocument => ({
  format: "parley",
  version: 1,
  assistant: {
    name: assistant.name,
    description: assistant.description,
    language: assistant.language,
    nluThreshold: assistant.nluThreshold
  },
  intents: intents.map((intent) => ({
    name: intent.name,
    description: intent.description,
    utterances: intent.utterances,
    slots: intent.slots
  })),
  flow: { nodes: flow.nodes, edges: flow.edges, subflows: flow.subflows }
})

export const exportParley = (
  assistant: Assistant,
  flow: Pick<Flow, "nodes" | "edges" | "subflows">,
  intents: ReadonlyArray<Intent>
): string => `${JSON.stringify(parleyDocumentOf(assistant, flow, intents), null, 2)}\n`
