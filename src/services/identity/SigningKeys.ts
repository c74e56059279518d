/**
 * The keys that sign access tokens. In production the Ed25519 key comes from
 * `PARLEY_JWT_PRIVATE_KEY`; elsewhere Parley generates one on first start and
 * keeps it in the database, its private half sealed with the master key, so
 * every node of one database signs with the same key. Public halves are
 * served at `/.well-known/jwks.json`.
 */
import { Effect, Option, Redacted } from "effect"
import {
  calculateJwkThumbprint,
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type JWK,
  type KeyObject
} from "jose"
import { createPublicKey } from "node:crypto"
import { JwtPrivateKey } from "../../config/Settings.js"
import type { PublicJwk } from "../../domain/identity/Jwks.js"
import { SigningKeyRepo } from "../../persistence/identity/SigningKeyRepo.js"
import { SecretBox } from "../SecretBox.js"

/** The only algorithm Parley signs and accepts access tokens with. */
export const SIGNING_ALGORITHM = "EdDSA"

/** One key pair: what signs, and what others verify with. */
export interface SigningKey {
  readonly kid: string
  readonly privateKey: CryptoKey | KeyObject
  readonly verifyKey: CryptoKey | KeyObject | Uint8Array
  readonly publicJwk: PublicJwk
}

const SEAL_CONTEXT = "signing-key"

const publicJwkOf = async (jwk: JWK): Promise<PublicJwk> => {
  const kid = await calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x! })
  return { kty: "OKP", crv: "Ed25519", x: jwk.x!, alg: SIGNING_ALGORITHM, use: "sig", kid }
}

const fromConfiguredPem = (pem: string) =>
  Effect.tryPromise({
    try: async (): Promise<SigningKey> => {
      const privateKey = await importPKCS8(pem, SIGNING_ALGORITHM)
      const publicKey = createPublicKey({ key: pem, format: "pem" })
      const publicJwk = await publicJwkOf(await exportJWK(publicKey))
      return { kid: publicJwk.kid, privateKey, verifyKey: publicKey, publicJwk }
    },
    catch: (cause) => new Error(`PARLEY_JWT_PRIVATE_KEY is not an Ed25519 PKCS#8 PEM key: ${String(cause)}`)
  })

/** The signing keys in force, loaded once per node. */
export class SigningKeys extends Effect.Service<SigningKeys>()("parley/services/identity/SigningKeys", {
  effect: Effect.gen(function*() {
    const configured = yield* JwtPrivateKey
    const repo = yield* SigningKeyRepo
    const box = yield* SecretBox

    const fromStored = (row: { kid: string; publicJwk: Record<string, unknown>; privateKey: string }) =>
      Effect.flatMap(
        box.openString(row.privateKey, SEAL_CONTEXT),
        (privateJson) =>
          Effect.promise(async (): Promise<SigningKey> => {
            const privateJwk = JSON.parse(privateJson) as JWK
            const publicJwk = row.publicJwk as unknown as PublicJwk
            return {
              kid: row.kid,
              privateKey: await importJWK(privateJwk, SIGNING_ALGORITHM) as CryptoKey,
              verifyKey: await importJWK(publicJwk as JWK, SIGNING_ALGORITHM) as CryptoKey,
              publicJwk
            }
          })
      ).pipe(Effect.orDie)

    const generate = Effect.gen(function*() {
      const { privateKey, publicKey } = yield* Effect.promise(() =>
        generateKeyPair(SIGNING_ALGORITHM, { crv: "Ed25519", extractable: true })
      )
      const publicJwk = yield* Effect.promise(async () => publicJwkOf(await exportJWK(publicKey)))
      const privateJwk = yield* Effect.promise(() => exportJWK(privateKey))
      yield* repo.insert({
        kid: publicJwk.kid,
        algorithm: SIGNING_ALGORITHM,
        publicJwk: publicJwk as unknown as Record<string, unknown>,
        privateKey: yield* box.seal(JSON.stringify(privateJwk), SEAL_CONTEXT),
        createdAt: new Date()
      })
      yield* Effect.logInfo("Generated an access-token signing key").pipe(Effect.annotateLogs({ kid: publicJwk.kid }))
    })

    const loadStored = Effect.gen(function*() {
      let rows = yield* repo.active()
      if (rows.length === 0) {
        rows = yield* repo.withGenerationLock(
          Effect.flatMap(
            repo.active(),
            (again) => again.length > 0 ? Effect.succeed(again) : Effect.zipRight(generate, repo.active())
          )
        )
      }
      return yield* Effect.forEach(rows, fromStored)
    })

    const keys = yield* Option.match(configured, {
      onSome: (pem) => Effect.map(Effect.orDie(fromConfiguredPem(Redacted.value(pem))), (key) => [key]),
      onNone: () => loadStored
    })

    return {
      /** The key new tokens are signed with (the oldest active one, so every node agrees). */
      current: keys[0]!,
      /** The key a token names, among those in force. */
      byKid: (kid: string): Option.Option<SigningKey> => Option.fromNullable(keys.find((key) => key.kid === kid)),
      /** The public keys, as `/.well-known/jwks.json` serves them. */
      jwks: { keys: keys.map((key) => key.publicJwk) }
    } as const
  })
}) {}
