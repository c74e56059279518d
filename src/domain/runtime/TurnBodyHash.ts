/**
 * What makes "the same request" under one Idempotency-Key: the SHA-256 of a
 * turn's body in canonical JSON. Apart from `Turn.ts`, which the contract
 * imports (and the contract stays free of Node's modules).
 */
import * as Crypto from "node:crypto"
import { canonicalJson } from "../CanonicalJson.js"
import type { TurnInput } from "./Turn.js"

export const turnBodyHash = (input: TurnInput): string =>
  Crypto.createHash("sha256").update(canonicalJson(input)).digest("hex")
