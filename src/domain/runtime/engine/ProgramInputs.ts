/**
 * What the engine compiles of an Assistant, from a draft as the service reads
 * it or from a deployment's snapshot (a Parley document): both hold the
 * assistant's settings, its flow and its intents under the same names, so
 * the one function serves both and a draft runs exactly as its deployment
 * will.
 */
import type { Subflow } from "../../assistants/Flow.js"
import type { FlowEdge } from "../../assistants/FlowEdge.js"
import type { FlowNode } from "../../assistants/FlowNode.js"
import type { EngineIntent, ProgramInput } from "./FlowProgram.js"

/** An Assistant as the engine needs it. */
export interface CompilableAssistant {
  readonly assistant: { readonly nluThreshold: number | null; readonly language: string }
  readonly flow: {
    readonly nodes: ReadonlyArray<FlowNode>
    readonly edges: ReadonlyArray<FlowEdge>
    readonly subflows: ReadonlyArray<Subflow>
  }
  readonly intents: ReadonlyArray<EngineIntent>
}

/** The program input of `source` for `locale` (the Assistant's language when omitted). */
export const programInputOf = ({ assistant, flow, intents }: CompilableAssistant, locale?: string): ProgramInput => ({
  nodes: flow.nodes,
  edges: flow.edges,
  subflows: flow.subflows,
  intents: intents.map((intent) => ({ name: intent.name, utterances: intent.utterances, slots: intent.slots })),
  nluThreshold: assistant.nluThreshold,
  locale: locale ?? assistant.language
})
