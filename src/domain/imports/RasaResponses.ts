/**
 * What a Rasa domain response becomes in a flow, and what of it could not
 * come along. A message carries text (`{slot}` as `{{slot}}`), an image (an
 * https URL) and up to 10 buttons, so those are imported; a question's prompt
 * is text only. One variant is imported, the first meant for every channel
 * and without a condition (else the first). Everything else is named in the
 * report, once per response: the other variants (random, channel-specific or
 * conditional, and the condition or channel of the one imported), an image
 * that is not an https URL, buttons past the tenth, `custom`, `attachment`,
 * `elements`, `quick_replies`, `metadata` and any other field, and a response
 * without text, whose name then stands in for it (a message needs text).
 * `button_type` (how buttons are laid out) and `id` change nothing a
 * conversation shows, and are not reported.
 */
import { Schema } from "effect"
import { excerpt } from "../Excerpt.js"
import { HttpsUrl } from "../Url.js"
import type { ReportBuilder } from "./ImportReportBuilder.js"

type Yaml = Record<string, unknown>

/** A domain response: its variants, and the file that defines it. */
export interface RasaResponse {
  readonly variants: ReadonlyArray<Yaml>
  readonly file: string
}

/** The data of a message node made from a response. */
export interface ResponseMessage {
  readonly text: string
  readonly image?: { readonly url: string }
  readonly buttons: ReadonlyArray<{ readonly label: string; readonly payload: string }>
}

/** The most buttons a message holds (see `MessageData`). */
const MAX_BUTTONS = 10

/** Fields read into a message, fields read nowhere but harmless to leave out. */
const messageFields = new Set(["text", "image", "buttons"])
const silentFields = new Set(["button_type", "id", "channel", "condition"])

const isObject = (value: unknown): value is Yaml => typeof value === "object" && value !== null && !Array.isArray(value)
const isHttpsUrl = Schema.is(HttpsUrl)

/** Rasa `{slot}` placeholders as Parley `{{slot}}`. */
const template = (text: string) => text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, "{{$1}}")

/** The variant imported: the first for every channel without a condition, else the first. */
const chosen = (variants: ReadonlyArray<Yaml>): Yaml =>
  variants.find((v) => v["channel"] === undefined && v["condition"] === undefined) ?? variants[0]!

const list = (items: ReadonlyArray<string>) => items.join(", ")
const were = (fields: ReadonlyArray<string>) =>
  fields.length === 1 ? `field ${fields[0]} was not imported` : `fields ${list(fields)} were not imported`

/** The variants left out, if any. */
const variantProblems = (variants: ReadonlyArray<Yaml>, kept: Yaml): Array<string> => {
  const others = variants.filter((v) => v !== kept)
  const keptFor = [
    ...(kept["channel"] === undefined
      ? []
      : [`the variant imported is for channel ${String(kept["channel"])}: it is said on every channel`]),
    ...(kept["condition"] === undefined
      ? []
      : ["the variant imported has a condition, which was not imported: it is always said"])
  ]
  if (others.length === 0) return keptFor
  const channels = [...new Set(others.flatMap((v) => v["channel"] === undefined ? [] : [String(v["channel"])]))]
  const conditional = others.filter((v) => v["condition"] !== undefined).length
  const kinds = [
    ...(channels.length > 0 ? [`for channels ${list(channels)}`] : []),
    ...(conditional > 0 ? [`${conditional} conditional`] : [])
  ]
  const which = kinds.length > 0 ? ` (${kinds.join("; ")})` : ""
  return [
    ...keptFor,
    `${others.length} of its ${variants.length} variants were not imported${which}: a step has one text`
  ]
}

const textOf = (variant: Yaml): string | undefined =>
  typeof variant["text"] === "string" && variant["text"].trim().length > 0
    ? excerpt(template(variant["text"]), 4000)
    : undefined

/** A variant as a message, and what of it was left out. */
const messageOf = (name: string, variant: Yaml): { message: ResponseMessage; problems: Array<string> } => {
  const problems: Array<string> = []
  const text = textOf(variant)
  if (text === undefined) problems.push("it has no text: its name stands in for it (a message needs text)")
  const rawImage = variant["image"]
  const url = typeof rawImage === "string" ? rawImage.trim() : undefined
  const image = url !== undefined && isHttpsUrl(url) ? { url } : undefined
  if (image === undefined && rawImage !== undefined && rawImage !== null) {
    problems.push(`image ${excerpt(String(rawImage), 200)} was not imported: a message's image is an https URL`)
  }
  const rawButtons = Array.isArray(variant["buttons"]) ? variant["buttons"].filter(isObject) : []
  if (rawButtons.length > MAX_BUTTONS) {
    problems.push(`${rawButtons.length} buttons, the first ${MAX_BUTTONS} imported: a message holds ${MAX_BUTTONS}`)
  }
  const buttons = rawButtons.slice(0, MAX_BUTTONS).map((b) => ({
    label: excerpt(String(b["title"] ?? b["payload"] ?? "…"), 80),
    payload: excerpt(String(b["payload"] ?? b["title"] ?? "…"), 256)
  }))
  const dropped = Object.keys(variant).filter((key) => !messageFields.has(key) && !silentFields.has(key))
  if (dropped.length > 0) problems.push(`${were(dropped)}: a message carries text, an image and buttons`)
  return { message: { text: text ?? name, ...(image === undefined ? {} : { image }), buttons }, problems }
}

/** A variant as a question's prompt, and what of it was left out. */
const promptOf = (variant: Yaml): { prompt: string | undefined; problems: Array<string> } => {
  const dropped = Object.keys(variant).filter((key) => key !== "text" && !silentFields.has(key))
  return {
    prompt: textOf(variant),
    problems: dropped.length > 0 ? [`${were(dropped)}: a question asks in text only`] : []
  }
}

/**
 * Reads responses into messages and prompts, reporting what each left
 * behind once per response and use, however many steps use it.
 */
export const makeResponseReader = (responses: ReadonlyMap<string, RasaResponse>, report: ReportBuilder) => {
  const reported = new Set<string>()
  const read = <A extends { problems: ReadonlyArray<string> }>(
    use: string,
    name: string,
    of: (variant: Yaml) => A
  ): A | undefined => {
    const response = responses.get(name)
    if (response === undefined) return undefined
    const variant = chosen(response.variants)
    const result = of(variant)
    if (!reported.has(`${use} ${name}`)) {
      reported.add(`${use} ${name}`)
      for (const problem of [...variantProblems(response.variants, variant), ...result.problems]) {
        report.warn("unsupported-feature", `Response ${name}: ${problem}`, { file: response.file, elementId: name })
      }
    }
    return result
  }
  return {
    /** The message a response becomes; undefined when the domain has no such response. */
    message: (name: string): ResponseMessage | undefined => read("message", name, (v) => messageOf(name, v))?.message,
    /** The prompt of a question asked with a response (`utter_ask_*`); undefined without one or without text. */
    prompt: (name: string): string | undefined => read("prompt", name, promptOf)?.prompt
  }
}
