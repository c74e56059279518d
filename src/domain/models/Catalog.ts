import { Schema } from "effect"
import { LanguageTag } from "../assistants/Assistant.js"
import { Name } from "../Name.js"
import { LlmProvider } from "../settings/LlmConnection.js"
import { ClassifierHyperparameters, FineTuneHyperparameters } from "./Hyperparameters.js"
import { BaseModelRef, Count } from "./Ids.js"
import { BindingRole } from "./ModelBinding.js"
import { ClassifierKind, DatasetKind, ModelKind, TrainingLocation } from "./ModelKind.js"

/**
 * An agent-LLM provider whose fine-tuning API Parley drives; a fine-tuned model
 * is then used through the same provider settings as any other model.
 */
export const FineTuningProvider = LlmProvider.pipe(Schema.pickLiteral("openai", "google")).annotations({
  identifier: "FineTuningProvider"
})
export type FineTuningProvider = typeof FineTuningProvider.Type

/** A model kind on offer and what it needs. */
export const CatalogKind = Schema.Struct({
  kind: ModelKind,
  description: Schema.String,
  datasetKind: DatasetKind,
  trainsOn: TrainingLocation,
  /** What a deployment of this kind can be attached as. */
  attachableAs: Schema.Array(BindingRole)
}).annotations({ identifier: "CatalogKind" })
export type CatalogKind = typeof CatalogKind.Type

/** Indicative prices in US dollars per million tokens, as last published by the provider; `null` when unknown. */
export const PriceHints = Schema.Struct({
  currency: Schema.Literal("USD"),
  trainingPerMillionTokens: Schema.NullOr(Schema.NonNegative),
  inputPerMillionTokens: Schema.NullOr(Schema.NonNegative),
  outputPerMillionTokens: Schema.NullOr(Schema.NonNegative)
}).annotations({ identifier: "PriceHints" })

/** A base that Parley trains on its own workers (a linear or small neural classifier over text features). */
export const LocalBaseModel = Schema.Struct({
  trainsOn: Schema.Literal("local"),
  id: BaseModelRef,
  name: Name,
  description: Schema.String,
  kinds: Schema.NonEmptyArray(ClassifierKind),
  /** Languages it was designed for; empty means language-independent (character features). */
  languages: Schema.Array(LanguageTag),
  /** Whether it uses the workspace's embeddings provider, and so needs one configured. */
  needsEmbeddings: Schema.Boolean,
  defaultHyperparameters: ClassifierHyperparameters,
  /** A rough training time for 1,000 rows on one worker, in seconds. */
  secondsPer1kRows: Schema.NonNegative
}).annotations({ identifier: "LocalBaseModel" })
export type LocalBaseModel = typeof LocalBaseModel.Type

/** A provider's model that can be fine-tuned on conversations. */
export const ProviderBaseModel = Schema.Struct({
  trainsOn: Schema.Literal("provider"),
  id: BaseModelRef,
  provider: FineTuningProvider,
  name: Name,
  kinds: Schema.NonEmptyArray(Schema.Literal("llm-fine-tune")),
  /** Tokens of context, input and output together. */
  contextWindow: Count,
  /** The longest training example the provider accepts, in tokens; `null` when the context window is the limit. */
  maxExampleTokens: Schema.NullOr(Count),
  prices: PriceHints,
  /** Whether this workspace has credentials for the provider (agent LLM settings or the vault). */
  available: Schema.Boolean,
  defaultHyperparameters: FineTuneHyperparameters
}).annotations({ identifier: "ProviderBaseModel" })
export type ProviderBaseModel = typeof ProviderBaseModel.Type

/** A base model of the catalog, local or at a provider. */
export const CatalogBaseModel = Schema.Union(LocalBaseModel, ProviderBaseModel).annotations({
  identifier: "CatalogBaseModel"
})
export type CatalogBaseModel = typeof CatalogBaseModel.Type

/** What a workspace can train: the kinds and the base models on offer. */
export const ModelCatalog = Schema.Struct({
  kinds: Schema.Array(CatalogKind),
  baseModels: Schema.Array(CatalogBaseModel)
}).annotations({ identifier: "ModelCatalog" })
export type ModelCatalog = typeof ModelCatalog.Type
