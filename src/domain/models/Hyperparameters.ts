import { Schema } from "effect"
import { UnitInterval } from "./Ids.js"

const Int = (min: number, max: number) => Schema.Number.pipe(Schema.int(), Schema.between(min, max))

/**
 * Settings of a local classifier trainer; every field is optional and the
 * catalog entry of the base model gives its defaults.
 */
export const ClassifierHyperparameters = Schema.Struct({
  /** Passes over the training rows. */
  epochs: Schema.optional(Int(1, 200)),
  /** Step size of the optimiser. */
  learningRate: Schema.optional(Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(1))),
  /** Rows per optimiser step. */
  batchSize: Schema.optional(Int(1, 1024)),
  /** `balanced` weighs rare labels up so they are not drowned by frequent ones. */
  classWeighting: Schema.optional(Schema.Literal("balanced", "none")),
  /** Below this confidence the model answers "none of these" (out of scope). */
  outOfScopeThreshold: Schema.optional(UnitInterval),
  /** Seed of every random choice, so a job can be repeated exactly. */
  seed: Schema.optional(Int(0, 2_147_483_647))
}).annotations({ identifier: "ClassifierHyperparameters" })
export type ClassifierHyperparameters = typeof ClassifierHyperparameters.Type

/** A provider setting that the provider may choose (`auto`) or that is given. */
const autoOr = <S extends Schema.Schema.Any>(value: S) => Schema.Union(Schema.Literal("auto"), value)

/** Settings of a provider fine-tuning job (OpenAI's names, in camelCase); omitted means `auto`. */
export const FineTuneHyperparameters = Schema.Struct({
  nEpochs: Schema.optional(autoOr(Int(1, 50))),
  batchSize: Schema.optional(autoOr(Int(1, 256))),
  learningRateMultiplier: Schema.optional(
    autoOr(Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(10)))
  ),
  seed: Schema.optional(Int(0, 2_147_483_647))
}).annotations({ identifier: "FineTuneHyperparameters" })
export type FineTuneHyperparameters = typeof FineTuneHyperparameters.Type

/**
 * How a job holds rows back from training to measure the model: a fraction of
 * the dataset (0 to 0.5; 0 keeps nothing back and leaves no held-out metrics),
 * stratified by label for classifiers, chosen with a seed so it is repeatable.
 */
export const HeldOutSplit = Schema.Struct({
  fraction: Schema.optionalWith(Schema.Number.pipe(Schema.between(0, 0.5)), { default: () => 0.2 }),
  stratify: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  seed: Schema.optionalWith(Int(0, 2_147_483_647), { default: () => 42 })
}).annotations({ identifier: "HeldOutSplit" })
export type HeldOutSplit = typeof HeldOutSplit.Type

/** The split a job uses when the request names none. */
export const defaultHeldOutSplit: HeldOutSplit = { fraction: 0.2, stratify: true, seed: 42 }
