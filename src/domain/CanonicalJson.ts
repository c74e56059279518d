/**
 * One JSON text per value, whatever the order its objects were built in, so
 * a hash over it (the audit chain) can be recomputed from a stored copy.
 */

/**
 * `JSON.stringify` with every object's keys sorted (by UTF-16 code units, as
 * RFC 8785 sorts them), recursively and without whitespace. Everything else
 * follows `JSON.stringify`: `toJSON` is honoured (a `Date` becomes its ISO
 * string with milliseconds), `undefined`, functions and symbols are left out
 * of objects and become `null` in arrays, non-finite numbers are `null`. A
 * value with no JSON form at all (`undefined` alone) is `null`.
 */
export const canonicalJson = (value: unknown): string => write(value) ?? "null"

const write = (input: unknown): string | undefined => {
  const value = hasToJson(input) ? input.toJSON() : input
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null"
    case "bigint":
      throw new TypeError("canonicalJson: a bigint has no JSON form")
    case "object": {
      if (value === null) return "null"
      if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? "null").join(",")}]`
      const record = value as Record<string, unknown>
      const members: Array<string> = []
      for (const key of Object.keys(record).sort()) {
        const member = write(record[key])
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`)
      }
      return `{${members.join(",")}}`
    }
    default:
      return undefined
  }
}

const hasToJson = (value: unknown): value is { toJSON: () => unknown } =>
  typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function"
