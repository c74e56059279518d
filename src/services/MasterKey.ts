/**
 * The keys that encrypt secrets at rest: a ring of the current key, under
 * which everything new is written, and previous keys that are still read
 * while `parley secrets rotate-master-key` moves their values to the current
 * one. Production configures the current key (`PARLEY_MASTER_KEY`); elsewhere
 * it is generated once into the data directory, so every node on one machine
 * uses the same key. Previous keys come from `PARLEY_MASTER_KEY_PREVIOUS`.
 * Each key has a stable id, stored beside what it encrypts, so a reader
 * finds the key without trying them all.
 */
import { Data, Effect, Layer, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import {
  DataDir,
  Environment,
  MasterKey as MasterKeySetting,
  MasterKeyPrevious as MasterKeyPreviousSetting
} from "../config/Settings.js"

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

/** One key of the ring: its id (16 hex characters of SHA-256 over the derived key) and the derived key. */
export interface MasterKeyEntry {
  readonly id: string
  readonly key: Uint8Array
}

const entryOf = (key: Uint8Array): MasterKeyEntry => ({
  id: Crypto.createHash("sha256").update(key).digest("hex").slice(0, 16),
  key
})

/** The ring of a current key and previous ones (a previous key equal to the current is dropped). */
const ringOf = (current: Uint8Array, previous: ReadonlyArray<Uint8Array>) => {
  const currentEntry = entryOf(current)
  const previousEntries: Array<MasterKeyEntry> = []
  for (const entry of previous.map(entryOf)) {
    if (entry.id !== currentEntry.id && !previousEntries.some((known) => known.id === entry.id)) {
      previousEntries.push(entry)
    }
  }
  const ring = [currentEntry, ...previousEntries]
  return {
    /** The current key's bytes (what everything new is written under). */
    key: current,
    current: currentEntry,
    previous: previousEntries as ReadonlyArray<MasterKeyEntry>,
    /** The current key first, then the previous ones in their configured order. */
    ring: ring as ReadonlyArray<MasterKeyEntry>,
    /** The key with this id, if the ring holds it. */
    find: (id: string): Option.Option<MasterKeyEntry> => Option.fromNullable(ring.find((entry) => entry.id === id))
  }
}

const decodePrevious = (configured: Option.Option<Redacted.Redacted<string>>) =>
  Option.match(configured, {
    onNone: () => Effect.succeed([] as ReadonlyArray<Uint8Array>),
    onSome: (text) =>
      Effect.forEach(
        Redacted.value(text).split(",").map((part) => part.trim()).filter((part) => part !== ""),
        (part, index) => decode(part, `PARLEY_MASTER_KEY_PREVIOUS (key ${index + 1})`)
      )
  })

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

/** The master keys that all encryption of secrets at rest derives from (see `SecretBox`, `Envelope`). */
export class MasterKey extends Effect.Service<MasterKey>()("parley/services/MasterKey", {
  effect: Effect.gen(function*() {
    const previous = yield* decodePrevious(yield* MasterKeyPreviousSetting)
    const configured = yield* MasterKeySetting
    if (Option.isSome(configured)) {
      return ringOf(yield* decode(Redacted.value(configured.value), "PARLEY_MASTER_KEY"), previous)
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
    return ringOf(key, previous)
  })
}) {
  /**
   * A master key from the given material (32+ bytes, derived exactly as a
   * configured key is), and previous keys still read: for tests.
   */
  static layerFromBytes = (material: Uint8Array, previous: ReadonlyArray<Uint8Array> = []): Layer.Layer<MasterKey> =>
    Layer.sync(MasterKey, () => {
      for (const bytes of [material, ...previous]) {
        if (bytes.length < MASTER_KEY_MIN_BYTES) {
          throw new MasterKeyError({
            reason: `a master key needs ${MASTER_KEY_MIN_BYTES}+ bytes, got ${bytes.length}`
          })
        }
      }
      return new MasterKey(ringOf(deriveKey(material), previous.map(deriveKey)))
    })
}
