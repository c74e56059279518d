import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { MasterKey } from "../../../src/services/MasterKey.js"

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-masterkey-"))

/** The master key built from exactly these settings, with the warnings it logged. */
const build = (settings: Record<string, string>) =>
  Effect.gen(function*() {
    const warnings: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag === "Warning") warnings.push(String(message))
    })
    const key = yield* MasterKey.pipe(
      Effect.map((service) => service.key),
      Effect.provide(
        MasterKey.Default.pipe(
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson(settings))),
          Layer.provide(Logger.replace(Logger.defaultLogger, logger))
        )
      )
    )
    return { key, warnings }
  })

const configured = (bytes: number) => Crypto.randomBytes(bytes).toString("base64")

describe("MasterKey", () => {
  it.effect("derives a 32-byte key from configured base64 of 32 bytes or more", () =>
    Effect.gen(function*() {
      const material = configured(48)
      const first = yield* build({ PARLEY_MASTER_KEY: material, PARLEY_DATA_DIR: tempDir() })
      const again = yield* build({ PARLEY_MASTER_KEY: material, PARLEY_ENV: "production" })
      expect(first.key.length).toBe(32)
      expect(Buffer.from(first.key).equals(Buffer.from(again.key))).toBe(true)
      expect(Buffer.from(first.key).equals(Buffer.from(material, "base64").subarray(0, 32))).toBe(false)
      expect(first.warnings).toEqual([])
    }))

  it.effect("accepts base64url and surrounding whitespace", () =>
    Effect.gen(function*() {
      const bytes = Crypto.randomBytes(32)
      const standard = yield* build({ PARLEY_MASTER_KEY: bytes.toString("base64") })
      const url = yield* build({ PARLEY_MASTER_KEY: ` ${bytes.toString("base64url")}\n` })
      expect(Buffer.from(url.key).equals(Buffer.from(standard.key))).toBe(true)
    }))

  it.effect("refuses a key that is not base64, or too short, with a clear message", () =>
    Effect.gen(function*() {
      const notBase64 = yield* Effect.flip(build({ PARLEY_MASTER_KEY: "this is not base64 at all!" }))
      expect(notBase64._tag).toBe("MasterKeyError")
      expect(notBase64.message).toContain("PARLEY_MASTER_KEY is not base64")
      const short = yield* Effect.flip(build({ PARLEY_MASTER_KEY: configured(16) }))
      expect(short.message).toContain("decodes to 16 bytes")
      expect(short.message).toContain("at least 32")
    }))

  it.effect("is required in production", () =>
    Effect.gen(function*() {
      const dataDir = tempDir()
      const error = yield* Effect.flip(build({ PARLEY_ENV: "production", PARLEY_DATA_DIR: dataDir }))
      expect(error.message).toContain("PARLEY_MASTER_KEY")
      expect(Fs.existsSync(Path.join(dataDir, "master.key"))).toBe(false)
    }))

  it.effect("otherwise generates one into the data directory (mode 0600) and reuses it, with a warning", () =>
    Effect.gen(function*() {
      const dataDir = Path.join(tempDir(), "nested", "data")
      const first = yield* build({ PARLEY_DATA_DIR: dataDir })
      const file = Path.join(dataDir, "master.key")
      expect(Fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(Buffer.from(Fs.readFileSync(file, "utf8").trim(), "base64").length).toBe(32)
      expect(first.key.length).toBe(32)
      expect(first.warnings).toHaveLength(1)
      expect(first.warnings[0]).toContain(file)
      const second = yield* build({ PARLEY_DATA_DIR: dataDir })
      expect(Buffer.from(second.key).equals(Buffer.from(first.key))).toBe(true)
      expect(Fs.readdirSync(dataDir)).toEqual(["master.key"])
    }))

  it.effect("several builds on one data directory agree on one key (the file is created once, then reused)", () =>
    Effect.gen(function*() {
      const dataDir = tempDir()
      const keys = yield* Effect.all(Array.from({ length: 8 }, () => build({ PARLEY_DATA_DIR: dataDir })), {
        concurrency: "unbounded"
      })
      expect(new Set(keys.map(({ key }) => Buffer.from(key).toString("hex"))).size).toBe(1)
    }))

  it.effect("refuses a corrupt generated key file, naming it", () =>
    Effect.gen(function*() {
      const dataDir = tempDir()
      Fs.writeFileSync(Path.join(dataDir, "master.key"), "c2hvcnQ=\n")
      const error = yield* Effect.flip(build({ PARLEY_DATA_DIR: dataDir }))
      expect(error.message).toContain(Path.join(dataDir, "master.key"))
    }))

  it.effect("layerFromBytes derives the key exactly as configuration does", () =>
    Effect.gen(function*() {
      const bytes = Crypto.randomBytes(32)
      const fromConfig = yield* build({ PARLEY_MASTER_KEY: bytes.toString("base64") })
      const fromBytes = yield* Effect.provide(MasterKey, MasterKey.layerFromBytes(bytes))
      expect(Buffer.from(fromBytes.key).equals(Buffer.from(fromConfig.key))).toBe(true)
    }))

  it.effect("a ring: the current key writes, previous keys (comma-separated) are read; each has a stable id", () =>
    Effect.gen(function*() {
      const [current, older, oldest] = [configured(32), configured(32), configured(40)]
      const ringOf = (settings: Record<string, string>) =>
        Effect.provide(
          MasterKey,
          MasterKey.Default.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson(settings))))
        )
      const ring = yield* ringOf({
        PARLEY_MASTER_KEY: current,
        PARLEY_MASTER_KEY_PREVIOUS: ` ${older}, ${oldest},,${current}`
      })
      expect(ring.ring.map((entry) => entry.id)).toHaveLength(3)
      expect(ring.current.id).toMatch(/^[0-9a-f]{16}$/)
      expect(ring.ring[0]).toBe(ring.current)
      const alone = yield* ringOf({ PARLEY_MASTER_KEY: older })
      expect(ring.previous[0]!.id).toBe(alone.current.id)
      expect(
        Buffer.from(ring.find(alone.current.id).pipe((found) => found._tag === "Some" ? found.value.key : []))
          .equals(Buffer.from(alone.key))
      ).toBe(true)
      expect(ring.find("0000000000000000")._tag).toBe("None")
      const refused = yield* Effect.flip(
        ringOf({ PARLEY_MASTER_KEY: current, PARLEY_MASTER_KEY_PREVIOUS: `${older},c2hvcnQ=` })
      )
      expect(refused.message).toContain("PARLEY_MASTER_KEY_PREVIOUS (key 2)")
    }))
})
