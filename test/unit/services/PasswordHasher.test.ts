import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import { DUMMY_HASH, PasswordHasher, PasswordHashParameters } from "../../../src/services/PasswordHasher.js"

const secret = (value: string) => Redacted.make(value)
const unpadded = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "")

/** A PHC string made outside the service, at the given (weaker) parameters. */
const legacyHash = (password: string, ln: number, r: number, p: number) => {
  const salt = Crypto.randomBytes(16)
  const key = Crypto.scryptSync(password, salt, 32, { N: 2 ** ln, r, p, maxmem: 64 * 1024 * 1024 })
  return `$scrypt$ln=${ln},r=${r},p=${p}$${unpadded(salt)}$${unpadded(key)}`
}

describe("PasswordHasher", () => {
  layer(PasswordHasher.Default, { excludeTestServices: true })("scrypt", (it) => {
    it.effect("hashes as a PHC string at OWASP's parameters and verifies the same password", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const stored = yield* hasher.hash(secret("correct horse battery staple"))
        expect(stored).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
        expect(yield* hasher.verify(secret("correct horse battery staple"), stored)).toBe(true)
        expect(hasher.needsRehash(stored)).toBe(false)
      }))

    it.effect("refuses a wrong password", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const stored = yield* hasher.hash(secret("correct horse battery staple"))
        expect(yield* hasher.verify(secret("correct horse battery stapler"), stored)).toBe(false)
        expect(yield* hasher.verify(secret(""), stored)).toBe(false)
      }))

    it.effect("salts: two hashes of one password differ, and both verify", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const [first, second] = yield* Effect.all([
          hasher.hash(secret("the same password")),
          hasher.hash(secret("the same password"))
        ], { concurrency: 2 })
        expect(first).not.toBe(second)
        expect(yield* hasher.verify(secret("the same password"), first!)).toBe(true)
        expect(yield* hasher.verify(secret("the same password"), second!)).toBe(true)
      }))

    it.effect("refuses a tampered hash or salt", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const stored = yield* hasher.hash(secret("correct horse battery staple"))
        const flip = (text: string, at: number) =>
          text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1)
        expect(yield* hasher.verify(secret("correct horse battery staple"), flip(stored, stored.length - 5))).toBe(
          false
        )
        expect(yield* hasher.verify(secret("correct horse battery staple"), flip(stored, 24))).toBe(false)
      }))

    it.effect("answers false, never a defect, for a malformed stored hash", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const malformed = [
          "",
          "not a hash",
          "$scrypt$ln=15,r=8,p=3$c2FsdHNhbHRzYWx0",
          "$scrypt$ln=15,r=8,p=3$!!!$???",
          "$scrypt$ln=40,r=8,p=3$c2FsdHNhbHRzYWx0c2FsdA$c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHQ",
          "$scrypt$ln=15,r=8,p=0$c2FsdHNhbHRzYWx0c2FsdA$c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHQ",
          "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHQ"
        ]
        for (const stored of malformed) {
          expect(yield* hasher.verify(secret("whatever password"), stored)).toBe(false)
          expect(hasher.needsRehash(stored)).toBe(true)
        }
      }))

    it.effect("verifies a hash made at weaker parameters, and says it needs rehashing", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const weaker = legacyHash("an older password", 10, 8, 1)
        expect(yield* hasher.verify(secret("an older password"), weaker)).toBe(true)
        expect(yield* hasher.verify(secret("another password"), weaker)).toBe(false)
        expect(hasher.needsRehash(weaker)).toBe(true)
        expect(hasher.needsRehash(legacyHash("x", 14, 8, 3))).toBe(true)
        expect(hasher.needsRehash(legacyHash("x", 15, 8, 1))).toBe(true)
      }))

    it.effect("normalises Unicode (NFC) before hashing: composed and decomposed forms are one password", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const composed = "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e"
        const decomposed = composed.normalize("NFD")
        expect(decomposed).not.toBe(composed)
        const stored = yield* hasher.hash(secret(composed))
        expect(yield* hasher.verify(secret(decomposed), stored)).toBe(true)
        const fromDecomposed = yield* hasher.hash(secret(decomposed))
        expect(yield* hasher.verify(secret(composed), fromDecomposed)).toBe(true)
        expect(yield* hasher.verify(secret("cafe creme brulee"), stored)).toBe(false)

        const emoji = yield* hasher.hash(secret("🔐 пароль 密码 كلمة"))
        expect(yield* hasher.verify(secret("🔐 пароль 密码 كلمة"), emoji)).toBe(true)
      }))

    it.effect("the dummy an unknown email is checked against costs what a real hash costs", () =>
      Effect.gen(function*() {
        // Same cost without timing anything (bench/identity times it): the dummy is a hash at the
        // current parameters, with a salt and a key of the current sizes, that needs no rehash.
        const hasher = yield* PasswordHasher
        const real = (yield* hasher.hash(secret("correct horse battery staple"))).split("$")
        const dummy = DUMMY_HASH.split("$")
        expect(dummy[2]).toBe(real[2])
        expect(dummy[3]!.length).toBe(real[3]!.length)
        expect(dummy[4]!.length).toBe(real[4]!.length)
        expect(hasher.needsRehash(DUMMY_HASH)).toBe(false)
        expect(yield* hasher.verify(secret("a wrong guess"), DUMMY_HASH)).toBe(false)
      }))

    it.effect("hashes a set of secrets with one salt, and hashLike reproduces one exactly", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const codes = ["abcde-23456", "fghjk-789mn", "pqrst-uvwxy"]
        const hashes = yield* hasher.hashAll(codes.map(secret))
        expect(new Set(hashes.map((hash) => hash.split("$")[3])).size).toBe(1)
        expect(new Set(hashes).size).toBe(3)
        for (const [index, code] of codes.entries()) {
          expect(yield* hasher.verify(secret(code), hashes[index]!)).toBe(true)
          expect(yield* hasher.hashLike(secret(code), hashes[0]!)).toEqual(Option.some(hashes[index]))
        }
        const other = yield* hasher.hashLike(secret("zzzzz-zzzzz"), hashes[0]!)
        expect(Option.isSome(other) && !hashes.includes(other.value)).toBe(true)
        expect(yield* hasher.hashLike(secret("abcde-23456"), "not a hash")).toEqual(Option.none())
      }))
  })

  // What the test servers provide (test/support/TestServer.ts): cheaper hashes, the same behaviour.
  const cheap = PasswordHasher.Default.pipe(
    Layer.provide(Layer.succeed(PasswordHashParameters, { ln: 10, r: 8, p: 1 }))
  )
  layer(cheap, { excludeTestServices: true })("at parameters a layer provides", (it) => {
    it.effect("hashes at them, verifies, and upgrades what is weaker; an unknown email's dummy has them too", () =>
      Effect.gen(function*() {
        const hasher = yield* PasswordHasher
        const stored = yield* hasher.hash(secret("correct horse battery staple"))
        expect(stored).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
        expect(yield* hasher.verify(secret("correct horse battery staple"), stored)).toBe(true)
        expect(yield* hasher.verify(secret("a wrong guess"), stored)).toBe(false)
        expect(hasher.needsRehash(stored)).toBe(false)
        expect(hasher.needsRehash(legacyHash("pw", 9, 8, 1))).toBe(true)
        // A stronger hash (made at OWASP's parameters) verifies and stays.
        expect(hasher.needsRehash(DUMMY_HASH)).toBe(false)
        const strong = legacyHash("pw", 15, 8, 3)
        expect(yield* hasher.verify(secret("pw"), strong)).toBe(true)
        const codes = yield* hasher.hashAll([secret("abcde-23456")])
        expect(codes[0]).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/)
        expect(yield* hasher.verifyDummy(secret("anything"))).toBeUndefined()
      }))
  })
})
