/**
 * Offset pagination shared by every list route: `?limit=&offset=` in,
 * `{ items, total, limit, offset }` out. Out-of-range values are a 400,
 * never a silent clamp.
 */
import { Schema } from "effect"

/** How many items a list answers when the request does not say. */
export const DEFAULT_LIMIT = 20
/** The most items one page may hold. */
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

/**
 * The query parameters of a list route. Both are optional on the wire and in
 * the typed client; `pageOf` gives the values in force.
 */
export const ListParams = Schema.Struct({
  limit: Schema.optional(Limit),
  offset: Schema.optional(Offset)
})
export type ListParams = typeof ListParams.Type

/** The limit and offset a list request asks for, defaults applied. */
export const pageOf = (params: ListParams): { readonly limit: number; readonly offset: number } => ({
  limit: params.limit ?? DEFAULT_LIMIT,
  offset: params.offset ?? 0
})

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
