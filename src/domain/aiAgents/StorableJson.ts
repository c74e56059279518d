/**
 * A JSON value made storable in PostgreSQL text and jsonb: NUL (refused
 * there) becomes U+FFFD, and so does a lone surrogate (not Unicode). Model
 * answers and tool results come from outside and may carry either.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const storableText = (text: string): string => text.replace(UNSTORABLE, "\uFFFD")

/** `value` with every string (keys too) made storable. */
export const storable = <A>(value: A): A => {
  if (typeof value === "string") return storableText(value) as A
  if (Array.isArray(value)) return value.map(storable) as A
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storable(item)])) as A
  }
  return value
}
