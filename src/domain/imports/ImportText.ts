/**
 * Turning a source's free text into what a flow accepts: labels without
 * markup, ids of the allowed characters, intent and variable names.
 */
import { excerpt } from "../Excerpt.js"

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", "#39": "'" }

/** Decode the HTML character references a diagram label may hold. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    const lower = ref.toLowerCase()
    if (lower.startsWith("#x")) return safeCodePoint(parseInt(lower.slice(2), 16)) ?? whole
    if (lower.startsWith("#")) return safeCodePoint(parseInt(lower.slice(1), 10)) ?? whole
    return entities[lower] ?? whole
  })

const safeCodePoint = (code: number): string | undefined =>
  Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined

/** The text of an HTML label: line breaks kept, tags dropped, entities decoded, blank runs collapsed. */
export const plainText = (html: string): string =>
  decodeEntities(
    html
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/(div|p|li|tr|h[1-6])>/gi, "\n")
      .replace(/<[^>]*>/g, "")
  )
    .split("\n")
    .map((line) => line.replace(/[\t \u00a0]+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n")

/** A node label (one line, 1 to 120 characters), or undefined for blank text. */
export const labelOf = (text: string): string | undefined => {
  const line = text.replace(/\s+/g, " ").trim()
  return line.length === 0 ? undefined : excerpt(line, 120)
}

/** Lower-case words of `text` joined by `_`, only ASCII letters and digits kept. */
const words = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")

/** An id for a node, edge or sub-flow: 1 to 64 of A-Z, a-z, 0-9, `_` and `-`. */
export const idFrom = (text: string, fallback: string): string => {
  const cleaned = text.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 64)
  return cleaned.length > 0 ? cleaned : fallback
}

/** An intent or slot name (`^[A-Za-z][A-Za-z0-9_.-]{0,79}$`) from any text. */
export const intentNameFrom = (text: string, fallback = "intent"): string => {
  const kept = text.trim().replace(/\//g, ".").replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[^A-Za-z]+/, "")
  const name = kept.length > 0 ? kept : words(text).replace(/^[^a-z]+/, "")
  return (name.length > 0 ? name : fallback).slice(0, 80)
}

/** A variable name (`^[A-Za-z_][A-Za-z0-9_]{0,63}$`) from any text. */
export const variableNameFrom = (text: string, fallback = "answer"): string => {
  const name = words(text).slice(0, 64).replace(/_+$/, "")
  if (name.length === 0) return fallback
  return /^[0-9]/.test(name) ? `_${name}`.slice(0, 64) : name
}

/** A route key (`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`) from any text. */
export const routeKeyFrom = (text: string, fallback: string): string => {
  const key = words(text).slice(0, 64).replace(/_+$/, "")
  return key.length > 0 ? key : fallback
}

/**
 * Hands out unique ids: the preferred one when free, else the preferred one
 * with a numeric suffix.
 */
export const makeIdAllocator = (prefix: string) => {
  const taken = new Set<string>()
  /** The next suffix to try per base, so many repeats of one id stay linear. */
  const nextSuffix = new Map<string, number>()
  let counter = 0
  return (preferred?: string): string => {
    const base = preferred === undefined ? `${prefix}${++counter}` : idFrom(preferred, `${prefix}${++counter}`)
    if (!taken.has(base)) {
      taken.add(base)
      return base
    }
    for (let suffix = nextSuffix.get(base) ?? 2;; suffix++) {
      const candidate = `${base.slice(0, 60)}_${suffix}`
      if (!taken.has(candidate)) {
        taken.add(candidate)
        nextSuffix.set(base, suffix + 1)
        return candidate
      }
    }
  }
}
