import { Schema } from "effect"

const Dollars = Schema.Number.pipe(Schema.nonNegative(), Schema.finite())

/** A model's list price in US dollars per million tokens, in and out. */
export const ModelPrice = Schema.Struct({
  inputPerMillion: Dollars,
  outputPerMillion: Dollars
}).annotations({ identifier: "ModelPrice" })
export type ModelPrice = typeof ModelPrice.Type

/**
 * Prices by `provider/model` (`openai/gpt-4.1-mini`), by `provider/*` (every
 * model of a provider), or by the bare model name (that model through any
 * provider, e.g. one served by an OpenAI-compatible gateway).
 */
export const AiPriceTable = Schema.Record({
  key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(240)),
  value: ModelPrice
}).annotations({ identifier: "AiPriceTable" })
export type AiPriceTable = typeof AiPriceTable.Type

const price = (inputPerMillion: number, outputPerMillion: number): ModelPrice => ({ inputPerMillion, outputPerMillion })

/**
 * The built-in list prices (USD per million tokens, as the providers published
 * them in 2025); `PARLEY_AI_PRICES` replaces or adds entries. The offline
 * provider costs nothing.
 */
export const defaultAiPrices: AiPriceTable = {
  "offline/*": price(0, 0),
  "openai/gpt-4o": price(2.5, 10),
  "openai/gpt-4o-mini": price(0.15, 0.6),
  "openai/gpt-4.1": price(2, 8),
  "openai/gpt-4.1-mini": price(0.4, 1.6),
  "openai/gpt-4.1-nano": price(0.1, 0.4),
  "openai/gpt-5": price(1.25, 10),
  "openai/gpt-5-mini": price(0.25, 2),
  "anthropic/claude-opus-4-1": price(15, 75),
  "anthropic/claude-sonnet-4-5": price(3, 15),
  "anthropic/claude-haiku-4-5": price(1, 5)
}

/** The price of a model: `provider/model`, then `provider/*`, then the bare model; undefined when unlisted. */
export const priceOf = (table: AiPriceTable, provider: string, model: string): ModelPrice | undefined =>
  table[`${provider}/${model}`] ?? table[`${provider}/*`] ?? table[model]

/**
 * What tokens cost at a price, in US dollars; an unlisted model costs 0 (and
 * the usage report says it is unpriced), never a guess.
 */
export const costOf = (price: ModelPrice | undefined, tokensIn: number, tokensOut: number): number =>
  price === undefined ? 0 : (tokensIn * price.inputPerMillion + tokensOut * price.outputPerMillion) / 1_000_000
