/**
 * Access tokens are verified strictly (ASVS V9): only EdDSA with a key of
 * Parley's own set, the right issuer, audience and type, and not expired; a
 * key named in the token's header is never used. The public keys at
 * `/.well-known/jwks.json` verify a real token. Tokens are presented through
 * the typed client; the key set is read raw, as published.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, UnsecuredJWT } from "jose"
import { v4 as uuidv4 } from "uuid"
import { DEFAULT_TOKEN_ISSUER } from "../../../src/config/Settings.js"
import { SigningKeyRepo } from "../../../src/persistence/identity/SigningKeyRepo.js"
import { SigningKeys } from "../../../src/services/identity/SigningKeys.js"
import { MasterKey } from "../../../src/services/MasterKey.js"
import { SecretBox } from "../../../src/services/SecretBox.js"
import { signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientWith } from "../../support/IdentityCalls.js"
import { configFrom, TEST_MASTER_KEY, testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

/** `account.me` with a bare bearer token, from the account's address. */
const me = (token: string, address: string) =>
  Effect.flatMap(clientWith(token, address), (client) => client.account.me())

/** The error `account.me` refused a token with. */
const refusal = (token: string, address: string) => failureOf(me(token, address))

layer(testServer(), { excludeTestServices: true })("access tokens", (it) => {
  it.effect("a token verifies with the published key set, and names the session", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      // The key set as published (a decoded one would drop a private `d` before the check): raw.
      const jwks = yield* exchange(HttpClientRequest.get("/.well-known/jwks.json"))
      expect(jwks.status).toBe(200)
      expect(jwks.json.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" })
      expect(jwks.json.keys[0]).not.toHaveProperty("d")
      const verified = yield* Effect.promise(() =>
        jwtVerify(account.token, createLocalJWKSet(jwks.json), { audience: "parley", typ: "at+jwt" })
      )
      expect(verified.payload).toMatchObject({ sub: account.userId, aud: "parley" })
      expect(verified.payload.exp! - verified.payload.iat!).toBe(900)
      expect(typeof verified.payload["sid"]).toBe("string")
    }))

  it.effect("refuses tokens that are expired, unsigned, foreign, mistyped or aimed elsewhere", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const keys = yield* SigningKeys
      const key = keys.current
      const claims = { sid: "0190c7a0-0000-7000-8000-000000000000" }
      const sign = (edit: (jwt: SignJWT) => SignJWT, header: Record<string, unknown> = {}) =>
        Effect.promise(() =>
          edit(
            new SignJWT(claims)
              .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "at+jwt", ...header })
              .setIssuer(DEFAULT_TOKEN_ISSUER)
              .setAudience("parley")
              .setSubject(account.userId)
              .setIssuedAt()
              .setExpirationTime("15m")
              .setJti(uuidv4())
          ).sign(key.privateKey)
        )
      const expired = yield* sign((jwt) =>
        jwt.setIssuedAt(Math.floor(Date.now() / 1000) - 3600).setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      )
      const { address } = account
      const expiredAnswer = yield* refusal(expired, address)
      expect(expiredAnswer._tag).toBe("Unauthenticated")
      expect(expiredAnswer.message).toContain("expired")
      expect((yield* refusal(yield* sign((jwt) => jwt.setAudience("someone-else")), address))._tag).toBe(
        "Unauthenticated"
      )
      expect((yield* refusal(yield* sign((jwt) => jwt.setIssuer("https://evil.example")), address))._tag).toBe(
        "Unauthenticated"
      )
      expect((yield* refusal(yield* sign((jwt) => jwt, { typ: "JWT" }), address))._tag).toBe("Unauthenticated")
      const unsigned = new UnsecuredJWT({ ...claims, sub: account.userId, aud: "parley", iss: DEFAULT_TOKEN_ISSUER })
        .setExpirationTime("15m").setIssuedAt().encode()
      expect((yield* refusal(unsigned, address))._tag).toBe("Unauthenticated")
      // A key of the attacker's, offered in the header (jwk) and as the signer: never trusted.
      const attacker = yield* Effect.promise(() => generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true }))
      const attackerJwk = yield* Effect.promise(() => exportJWK(attacker.publicKey))
      const forged = yield* Effect.promise(() =>
        new SignJWT({ ...claims, sub: account.userId })
          .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", jwk: attackerJwk, kid: key.kid })
          .setIssuer(DEFAULT_TOKEN_ISSUER).setAudience("parley").setIssuedAt().setExpirationTime("15m").setJti(
            uuidv4()
          )
          .sign(attacker.privateKey)
      )
      expect((yield* refusal(forged, address))._tag).toBe("Unauthenticated")
      // A flipped character in the payload breaks the signature.
      const [head, body, signature] = account.token.split(".")
      const tampered = `${head}.${body!.slice(0, -2)}${body!.slice(-2) === "AA" ? "AB" : "AA"}.${signature}`
      expect((yield* refusal(tampered, address))._tag).toBe("Unauthenticated")
      // The genuine token still works.
      expect((yield* me(account.token, address)).user.id).toBe(account.userId)
    }).pipe(Effect.provide(SigningKeysFromServer)))
})

/** The running node's own keys, read from its database with its master key. */
const SigningKeysFromServer = SigningKeys.Default.pipe(
  Layer.provide([SigningKeyRepo.Default, SecretBox.Default.pipe(Layer.provide(MasterKey.Default))]),
  Layer.provide(Layer.setConfigProvider(configFrom({ PARLEY_MASTER_KEY: TEST_MASTER_KEY })))
)
