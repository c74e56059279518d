import { Schema } from "effect"

/** A SHA-256 digest in lowercase hex: a content hash, a fingerprint, a link of the audit chain. */
export const Sha256Hex = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{64}$/),
  Schema.annotations({
    identifier: "Sha256Hex",
    examples: ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]
  })
)
export type Sha256Hex = typeof Sha256Hex.Type
