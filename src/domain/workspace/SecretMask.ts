/**
 * Hiding secret values in what a tool call returns, even when the remote
 * server echoes them back: every occurrence of a value is replaced by `••••`,
 * and so are its URL-encoded (`encodeURIComponent`), base64 and base64url
 * forms. Other encodings (hex, a value split across chunks of a JSON escape,
 * a base64 of the value inside a longer text, which shifts its alignment) are
 * not caught. Values shorter than 4 characters are masked in the request only:
 * masking them in an answer would blank unrelated text.
 */

/** What replaces a secret's value. */
export const MASK = "••••"

const MIN_MASKED = 4

const forms = (value: string): ReadonlyArray<string> => {
  const base64 = Buffer.from(value, "utf8").toString("base64")
  return [
    value,
    encodeURIComponent(value),
    base64,
    base64.replace(/=+$/, ""),
    Buffer.from(value, "utf8").toString("base64url")
  ]
}

/** A masker for these values: replaces each of their forms in a text, longest first. */
export const secretMasker = (values: ReadonlyArray<string>): (text: string) => string => {
  const needles = [...new Set(values.filter((value) => value.length >= MIN_MASKED).flatMap(forms))]
    .filter((needle) => needle.length >= MIN_MASKED)
    .sort((a, b) => b.length - a.length)
  if (needles.length === 0) return (text) => text
  return (text) => needles.reduce((masked, needle) => masked.split(needle).join(MASK), text)
}
