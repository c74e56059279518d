import { Schema } from "effect"

/** A classifier kind that Parley trains locally, on the node, with no network. */
export const ClassifierKind = Schema.Literal("intent-router", "guardrail-classifier").annotations({
  identifier: "ClassifierKind",
  description:
    "intent-router: routes utterances to intents; guardrail-classifier: labels input or output as safe or a violation"
})
export type ClassifierKind = typeof ClassifierKind.Type

/** A language model fine-tuned through a provider's fine-tuning API. */
export const LanguageModelKind = Schema.Literal("llm-fine-tune").annotations({ identifier: "LanguageModelKind" })
export type LanguageModelKind = typeof LanguageModelKind.Type

/** What a workspace model is for: it decides the dataset kind, the trainer and the metrics. */
export const ModelKind = Schema.Literal(...ClassifierKind.literals, ...LanguageModelKind.literals).annotations({
  identifier: "WorkspaceModelKind"
})
export type ModelKind = typeof ModelKind.Type

/** The shape of a dataset's rows: `{ text, label }` lines, or `{ messages }` chat transcripts. */
export const DatasetKind = Schema.Literal("labelled-utterances", "conversations").annotations({
  identifier: "DatasetKind"
})
export type DatasetKind = typeof DatasetKind.Type

/** Where a kind trains: on Parley's own workers, or at the provider. */
export const TrainingLocation = Schema.Literal("local", "provider").annotations({ identifier: "TrainingLocation" })
export type TrainingLocation = typeof TrainingLocation.Type

/** The dataset kind each model kind trains and evaluates on. */
export const datasetKindOf: Record<ModelKind, DatasetKind> = {
  "intent-router": "labelled-utterances",
  "guardrail-classifier": "labelled-utterances",
  "llm-fine-tune": "conversations"
}

/** Where each model kind trains. */
export const trainingLocationOf: Record<ModelKind, TrainingLocation> = {
  "intent-router": "local",
  "guardrail-classifier": "local",
  "llm-fine-tune": "provider"
}
