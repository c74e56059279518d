/**
 * The Idempotency-Key of an outgoing call Parley may have to make again (the
 * node died after sending it, and the call's new owner sends it once more),
 * derived only from where the call sits, so every node computes the same key
 * and the receiver can recognise the repeat. A prefix naming the kind of
 * call, then the first 60 hex digits of a SHA-256 over the canonical JSON of
 * the place: bounded, visible ASCII (a valid `IdempotencyKey`), and 240 bits
 * leave no practical collision. The fields of a place are hashed as JSON, so
 * no two places collide the way a plain concatenation would ("a:1" + "x"
 * against "a" + "1:x").
 */
import * as Crypto from "node:crypto"
import { canonicalJson } from "./CanonicalJson.js"

/** Where a call sits: the fields that identify it, by name. */
export type CallPlace = Readonly<Record<string, string | number>>

/** The key of the call at `place`: equal places give equal keys, any difference another key. */
export const placeIdempotencyKey = (prefix: string, place: CallPlace): string =>
  prefix + Crypto.createHash("sha256").update(canonicalJson(place)).digest("hex").slice(0, 60)
