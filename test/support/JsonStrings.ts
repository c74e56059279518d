/** Every string and every key in a JSON value, for checks that look at all the text an answer holds. */
export const stringsIn = (value: unknown): Array<string> =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value)
    ? value.flatMap(stringsIn)
    : value !== null && typeof value === "object"
    ? Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)])
    : []
