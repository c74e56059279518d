/**
 * Offset pagination shared by every list route: `?limit=&offset=` in,
 * `{ items, total, limit, offset }` out. Out-of-range values are a 400,
 * never a silent clamp.
 */
import { Schema } from "effect"

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/** How many items to return (1 to 100, default 20). */
export const Limit = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.between(1, MAX_LIMIT),
  Schema.annotations({ description: `How many items to return (1 to ${MAX_LIMIT})` })
)

/** How many items to skip (0 or more, default 0). */
export const Offset = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.nonNegative(),
  Schema.annotations({ description: "How many items to skip" })
)

/** The query parameters of a list route. */
export const ListParams = Schema.Struct({
  limit: Schema.optionalWith(Limit, { default: () => DEFAULT_LIMIT }),
  offset: Schema.optionalWith(Offset, { default: () => 0 })
})
export type ListParams = typeof ListParams.Type

/** One page of a list. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
  readonly limit: number
  readonly offset: number
}

/** The schema of one page of `item`. */
export const Page = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Struct({
    items: Schema.Array(item),
    total: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
    limit: Schema.Number.pipe(Schema.int()),
    offset: Schema.Number.pipe(Schema.int())
  })
