/**
 * The key that encrypts secrets at rest. Production configures it
 * (`PARLEY_MASTER_KEY`); elsewhere it is generated once into the data
 * directory, so every node on one machine uses the same key.
 */
import { Data, Effect, Layer, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { DataDir, Environment, MasterKey as MasterKeySetting } from "../config/Settings.js"

/** The shortest key material accepted, in bytes (256 bits). */
export const MASTER_KEY_MIN_BYTES = 32

/** The master key could not be had: missing in production, malformed, too short, or its file unreadable. */
export class MasterKeyError extends Data.TaggedError("MasterKeyError")<{
  readonly reason: string
}> {
  override get message() {
    return this.reason
  }
}

const base64Text = /^[A-Za-z0-9+/_-]+={0,2}$/

/** The 32-byte key, derived (HKDF-SHA256) from all of the configured material. */
const deriveKey = (material: Uint8Array): Uint8Array =>
  new Uint8Array(Crypto.hkdfSync("sha256", material, new Uint8Array(0), "parley master key", 32))

const decode = (text: string, source: string): Effect.Effect<Uint8Array, MasterKeyError> => {
  const trimmed = text.trim()
  if (!base64Text.test(trimmed)) {
    return Effect.fail(
      new MasterKeyError({
        reason:
          `${source} is not base64 (expected ${MASTER_KEY_MIN_BYTES}+ random bytes as base64, e.g. the output of \`openssl rand -base64 32\`)`
      })
    )
  }
  const bytes = Buffer.from(trimmed, "base64")
  if (bytes.length < MASTER_KEY_MIN_BYTES) {
    return Effect.fail(
      new MasterKeyError({
        reason:
          `${source} decodes to ${bytes.length} bytes; it needs at least ${MASTER_KEY_MIN_BYTES} (e.g. \`openssl rand -base64 32\`)`
      })
    )
  }
  return Effect.succeed(deriveKey(bytes))
}

/** Read `<dataDir>/master.key`, creating it first (32 random bytes, base64, mode 0600) when it is missing. */
const readOrCreateKeyFile = (dataDir: string) =>
  Effect.try({
    try: () => {
      const file = Path.join(dataDir, "master.key")
      if (!Fs.existsSync(file)) {
        Fs.mkdirSync(dataDir, { recursive: true })
        // Written aside, then linked into place: two nodes starting at once agree on one complete file.
        const temporary = `${file}.${process.pid}.${Crypto.randomBytes(4).toString("hex")}`
        Fs.writeFileSync(temporary, Crypto.randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" })
        try {
          Fs.linkSync(temporary, file)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        } finally {
          Fs.rmSync(temporary, { force: true })
        }
      }
      return { file, text: Fs.readFileSync(file, "utf8") }
    },
    catch: (cause) =>
      new MasterKeyError({
        reason: `the generated master key in ${dataDir} could not be read or written: ${String(cause)}`
      })
  })

/** The 32-byte key that all encryption of secrets at rest derives from (see `SecretBox`). */
export class MasterKey extends Effect.Service<MasterKey>()("parley/services/MasterKey", {
  effect: Effect.gen(function*() {
    const configured = yield* MasterKeySetting
    if (Option.isSome(configured)) {
      return { key: yield* decode(Redacted.value(configured.value), "PARLEY_MASTER_KEY") }
    }
    if ((yield* Environment) === "production") {
      return yield* new MasterKeyError({ reason: "PARLEY_ENV=production requires PARLEY_MASTER_KEY" })
    }
    const { file, text } = yield* readOrCreateKeyFile(yield* DataDir)
    const key = yield* decode(text, file)
    yield* Effect.logWarning(
      `PARLEY_MASTER_KEY is not set: secrets at rest are encrypted with the generated key in ${file}. ` +
        "Keep that file with the data; set PARLEY_MASTER_KEY when nodes run on several machines, and in production."
    )
    return { key }
  })
}) {
  /** A master key from the given material (32+ bytes, derived exactly as a configured key is): for tests. */
  static layerFromBytes = (material: Uint8Array): Layer.Layer<MasterKey> =>
    Layer.sync(MasterKey, () => {
      if (material.length < MASTER_KEY_MIN_BYTES) {
        throw new MasterKeyError({
          reason: `a master key needs ${MASTER_KEY_MIN_BYTES}+ bytes, got ${material.length}`
        })
      }
      return new MasterKey({ key: deriveKey(material) })
    })
}
