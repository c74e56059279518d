/**
 * A multipart request whose text is checked as it is read: a form field's
 * name or value, or a file's name, holding a NUL character or a lone surrogate
 * fails the read with `InvalidText` (`body.<field>`), which the error
 * responses answer as a 400. File contents are the reader's to judge (an
 * import replaces what it cannot store). Field values are decoded by the
 * platform, bytes that are not UTF-8 becoming U+FFFD, which is storable.
 */
import type { HttpServerRequest, Multipart } from "@effect/platform"
import { Effect, Stream } from "effect"
import { fieldStep, type FlawedField, flawOf, InvalidText } from "../../domain/StorableText.js"
import { DelegatingRequest } from "./DelegatingRequest.js"

const flawIn = (key: string, values: ReadonlyArray<string>, part: string): FlawedField | undefined => {
  const keyFlaw = flawOf(key)
  if (keyFlaw !== undefined) return { field: `body${fieldStep(key)}`, flaw: keyFlaw, inKey: true }
  for (const value of values) {
    const flaw = flawOf(value)
    if (flaw !== undefined) return { field: `body${fieldStep(key)}${part}`, flaw, inKey: false }
  }
  return undefined
}

/** The first flawed name or value of a multipart part. */
const partFlaw = (part: Multipart.Part): FlawedField | undefined =>
  part._tag === "Field" ? flawIn(part.key, [part.value], "") : flawIn(part.key, [part.name], ".filename")

/** The first flawed name or value of a persisted multipart body. */
const persistedFlaw = (persisted: Multipart.Persisted): FlawedField | undefined => {
  for (const [key, value] of Object.entries(persisted)) {
    const flawed = typeof value === "string"
      ? flawIn(key, [value], "")
      : value.every((item): item is string => typeof item === "string")
      ? flawIn(key, value, "")
      : flawIn(key, (value as ReadonlyArray<Multipart.PersistedFile>).map((file) => file.name), ".filename")
    if (flawed !== undefined) return flawed
  }
  return undefined
}

/**
 * The failure is a defect: the multipart accessors' error type is the
 * platform's, and the API turns their failures into defects anyway; the error
 * responses find the `InvalidText` among them.
 */
const refuse = (flawed: FlawedField | undefined) =>
  flawed === undefined ? Effect.void : Effect.die(InvalidText.of(flawed))

export class CheckedMultipartRequest extends DelegatingRequest {
  protected around(original: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest {
    return new CheckedMultipartRequest(original)
  }

  override get multipart() {
    return Effect.tap(this.original.multipart, (persisted) => refuse(persistedFlaw(persisted)))
  }

  override get multipartStream() {
    return Stream.tap(this.original.multipartStream, (part) => refuse(partFlaw(part)))
  }
}
