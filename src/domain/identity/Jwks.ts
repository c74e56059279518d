import { Schema } from "effect"

/** Base64url without padding (RFC 7515 §2), the encoding of every JWK number and coordinate. */
const Base64Url = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]+$/))

/** The key id, matched against a JWT header's `kid`. */
const Kid = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128))

const common = { kid: Kid, use: Schema.Literal("sig") }

/** An Ed25519 public key for EdDSA signatures (RFC 8037): Parley's default signing key. */
export const OkpPublicJwk = Schema.Struct({
  kty: Schema.Literal("OKP"),
  crv: Schema.Literal("Ed25519"),
  x: Base64Url,
  alg: Schema.Literal("EdDSA"),
  ...common
}).annotations({ identifier: "OkpPublicJwk" })

/** A P-256 public key for ES256 signatures (RFC 7518 §6.2), for verifiers without EdDSA. */
export const EcPublicJwk = Schema.Struct({
  kty: Schema.Literal("EC"),
  crv: Schema.Literal("P-256"),
  x: Base64Url,
  y: Base64Url,
  alg: Schema.Literal("ES256"),
  ...common
}).annotations({ identifier: "EcPublicJwk" })

/** An RSA public key (2048 bits or more) for RS256 or PS256 signatures (RFC 7518 §6.3). */
export const RsaPublicJwk = Schema.Struct({
  kty: Schema.Literal("RSA"),
  n: Base64Url,
  e: Base64Url,
  alg: Schema.Literal("RS256", "PS256"),
  ...common
}).annotations({ identifier: "RsaPublicJwk" })

/** A public signing key, as JOSE libraries (`jose.createRemoteJWKSet`) read it. */
export const PublicJwk = Schema.Union(OkpPublicJwk, EcPublicJwk, RsaPublicJwk).annotations({ identifier: "PublicJwk" })
export type PublicJwk = typeof PublicJwk.Type

/**
 * The public keys that verify Parley's access tokens (RFC 7517). During a key
 * rotation it lists the new key and the old one until the old one's last
 * token has expired. Private parts (`d`, `p`, `q`...) never appear.
 */
export const JsonWebKeySet = Schema.Struct({
  keys: Schema.Array(PublicJwk).pipe(Schema.minItems(1), Schema.maxItems(16))
}).annotations({ identifier: "JsonWebKeySet" })
export type JsonWebKeySet = typeof JsonWebKeySet.Type
