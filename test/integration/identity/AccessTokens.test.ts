/**
 * Access tokens are verified strictly (ASVS V9): only EdDSA with a key of
 * Parley's own set, the right issuer, audience and type, and not expired; a
 * key named in the token's header is never used. The public keys at
 * `/.well-known/jwks.json` verify a real token.
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
import { as, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { configFrom, TEST_MASTER_KEY, testServer } from "../../support/TestServer.js"

const me = (token: string) => exchange(as(HttpClientRequest.get("/v1/auth/me"), { token }))

layer(testServer(), { excludeTestServices: true })("access tokens", (it) => {
  it.effect("a token verifies with the published key set, and names the session", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
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
      const expiredAnswer = yield* me(expired)
      expect(expiredAnswer.status).toBe(401)
      expect(expiredAnswer.json.message).toContain("expired")
      expect((yield* me(yield* sign((jwt) => jwt.setAudience("someone-else")))).status).toBe(401)
      expect((yield* me(yield* sign((jwt) => jwt.setIssuer("https://evil.example")))).status).toBe(401)
      expect((yield* me(yield* sign((jwt) => jwt, { typ: "JWT" }))).status).toBe(401)
      const unsigned = new UnsecuredJWT({ ...claims, sub: account.userId, aud: "parley", iss: DEFAULT_TOKEN_ISSUER })
        .setExpirationTime("15m").setIssuedAt().encode()
      expect((yield* me(unsigned)).status).toBe(401)
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
      expect((yield* me(forged)).status).toBe(401)
      // A flipped character in the payload breaks the signature.
      const [head, body, signature] = account.token.split(".")
      const tampered = `${head}.${body!.slice(0, -2)}${body!.slice(-2) === "AA" ? "AB" : "AA"}.${signature}`
      expect((yield* me(tampered)).status).toBe(401)
      // The genuine token still works.
      expect((yield* me(account.token)).status).toBe(200)
    }).pipe(Effect.provide(SigningKeysFromServer)))
})

/** The running node's own keys, read from its database with its master key. */
const SigningKeysFromServer = SigningKeys.Default.pipe(
  Layer.provide([SigningKeyRepo.Default, SecretBox.Default.pipe(Layer.provide(MasterKey.Default))]),
  Layer.provide(Layer.setConfigProvider(configFrom({ PARLEY_MASTER_KEY: TEST_MASTER_KEY })))
)
