/**
 * Password hashes: scrypt at OWASP's parameters, stored as PHC strings so a
 * hash made with older parameters keeps verifying (and `needsRehash` says
 * when to upgrade it at the next login). The parameters are a context
 * reference (`PasswordHashParameters`): no setting lowers them; a test layer
 * may (a sign-up at OWASP's cost is 300 ms of CPU on a small machine, and the
 * suite signs up thousands of accounts).
 */
import { Context, Effect, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"

export interface Parameters {
  /** log2 of scrypt's cost N. */
  readonly ln: number
  readonly r: number
  readonly p: number
}

/** OWASP's scrypt parameters: N=2^15, r=8, p=3 (32 MiB, three passes). */
const OWASP: Parameters = { ln: 15, r: 8, p: 3 }

/** The parameters new hashes get: OWASP's unless a layer provides others (tests). */
export class PasswordHashParameters extends Context.Reference<PasswordHashParameters>()(
  "parley/services/PasswordHashParameters",
  { defaultValue: (): Parameters => OWASP }
) {}

const SALT_BYTES = 16
const KEY_BYTES = 32

// Bounds on what a stored string may ask for, so a corrupt row cannot make one verify take minutes or gigabytes.
const MAX_MEMORY = 256 * 1024 * 1024

interface Parsed extends Parameters {
  readonly salt: Buffer
  readonly hash: Buffer
}

const base64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "")

const phc = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

const memoryOf = ({ ln, r }: Parameters) => 128 * 2 ** ln * r

const parse = (stored: string): Option.Option<Parsed> => {
  const match = phc.exec(stored)
  if (match === null) return Option.none()
  const [, ln, r, p, salt, hash] = match
  const parsed: Parsed = {
    ln: Number(ln),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt!, "base64"),
    hash: Buffer.from(hash!, "base64")
  }
  const sane = parsed.ln >= 1 && parsed.r >= 1 && parsed.p >= 1 && parsed.p <= 16 &&
    memoryOf(parsed) <= MAX_MEMORY && parsed.salt.length >= 8 && parsed.hash.length >= 16 && parsed.hash.length <= 64
  return sane ? Option.some(parsed) : Option.none()
}

/** ASVS: a password is Unicode-normalised (NFC) before hashing, so "é" typed either way is the same password. */
const passwordBytes = (password: Redacted.Redacted<string>) =>
  Buffer.from(Redacted.value(password).normalize("NFC"), "utf8")

const scrypt = (password: Buffer, salt: Buffer, keyLength: number, parameters: Parameters) =>
  Effect.async<Buffer, Error>((resume) => {
    try {
      Crypto.scrypt(
        password,
        salt,
        keyLength,
        { N: 2 ** parameters.ln, r: parameters.r, p: parameters.p, maxmem: 2 * memoryOf(parameters) },
        (error, key) => resume(error === null ? Effect.succeed(key) : Effect.fail(error))
      )
    } catch (error) {
      resume(Effect.fail(error instanceof Error ? error : new Error(String(error))))
    }
  })

const verifyParsed = (password: Redacted.Redacted<string>, parsed: Parsed) =>
  scrypt(passwordBytes(password), parsed.salt, parsed.hash.length, parsed).pipe(
    Effect.map((derived) => Crypto.timingSafeEqual(derived, parsed.hash)),
    Effect.orElseSucceed(() => false)
  )

const phcOf = ({ ln, p, r }: Parameters, salt: Buffer, key: Buffer) =>
  `$scrypt$ln=${ln},r=${r},p=${p}$${base64(salt)}$${base64(key)}`

/** A hash of a random password nobody knows, at OWASP's parameters: what an unknown email is checked against. */
export const DUMMY_HASH = "$scrypt$ln=15,r=8,p=3$aW93IGyN94K8bFmLybYqcQ$4zJPEreYQteFc1Eir6JUWm7fv9giU26Ecu1WdBs1TZA"

/** The hasher at these parameters. */
const make = (current: Parameters) => {
  // An unknown email costs what a known one does: the dummy hash has the current parameters (a random key:
  // no password matches it).
  const dummy: Parsed = Option.getOrThrow(
    parse(
      current === OWASP ? DUMMY_HASH : phcOf(current, Crypto.randomBytes(SALT_BYTES), Crypto.randomBytes(KEY_BYTES))
    )
  )

  const hash = Effect.fn("PasswordHasher.hash")(function*(password: Redacted.Redacted<string>) {
    const salt = Crypto.randomBytes(SALT_BYTES)
    return phcOf(current, salt, yield* scrypt(passwordBytes(password), salt, KEY_BYTES, current).pipe(Effect.orDie))
  })

  /**
   * Hash several secrets of one owner (MFA recovery codes) with one random salt
   * and the current parameters, so a presented secret is hashed once
   * (`hashLike`) and looked up among them, however many there are.
   */
  const hashAll = Effect.fn("PasswordHasher.hashAll")(function*(secrets: ReadonlyArray<Redacted.Redacted<string>>) {
    const salt = Crypto.randomBytes(SALT_BYTES)
    return yield* Effect.forEach(
      secrets,
      (secret) =>
        scrypt(passwordBytes(secret), salt, KEY_BYTES, current).pipe(
          Effect.orDie,
          Effect.map((key) => phcOf(current, salt, key))
        ),
      { concurrency: 4 }
    )
  })

  /** The hash `secret` would have with the parameters and salt of `stored` (`None` when `stored` is malformed). */
  const hashLike = Effect.fn("PasswordHasher.hashLike")(
    function*(secret: Redacted.Redacted<string>, stored: string) {
      const parsed = parse(stored)
      if (Option.isNone(parsed)) return Option.none<string>()
      const { hash, salt } = parsed.value
      const key = yield* scrypt(passwordBytes(secret), salt, hash.length, parsed.value).pipe(Effect.orDie)
      return Option.some(phcOf(parsed.value, salt, key))
    }
  )

  const verify = Effect.fn("PasswordHasher.verify")(function*(password: Redacted.Redacted<string>, stored: string) {
    const parsed = parse(stored)
    if (Option.isNone(parsed)) return false
    return yield* verifyParsed(password, parsed.value)
  })

  const verifyDummy = Effect.fn("PasswordHasher.verifyDummy")(function*(password: Redacted.Redacted<string>) {
    yield* verifyParsed(password, dummy)
  })

  const needsRehash = (stored: string): boolean =>
    Option.match(parse(stored), {
      onNone: () => true,
      onSome: (parsed) =>
        parsed.ln < current.ln || parsed.r < current.r || parsed.p < current.p ||
        parsed.salt.length < SALT_BYTES || parsed.hash.length < KEY_BYTES
    })

  return { hash, verify, needsRehash, verifyDummy, hashAll, hashLike } as const
}

/**
 * Hashes and verifies passwords (scrypt, PHC strings). `verify` is false for
 * a wrong password and for a malformed stored hash alike; `verifyDummy` does
 * the work of a verify for a login whose email is unknown, so both take as long.
 */
export class PasswordHasher extends Effect.Service<PasswordHasher>()("parley/services/PasswordHasher", {
  effect: Effect.map(PasswordHashParameters, make)
}) {}
