import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as Fs from "node:fs"
import { generate, type HashAlgorithm } from "otplib"
import { Totp, TOTP_PERIOD, totpStep } from "../../../src/services/Totp.js"
import { corpus } from "../../support/Fixtures.js"

interface Rfc6238 {
  readonly secrets: Record<string, { readonly base32: string }>
  readonly vectors: ReadonlyArray<{ readonly time: number; readonly totp: string; readonly mode: string }>
}

const rfc6238 = JSON.parse(
  Fs.readFileSync(corpus("vectors/totp-rfc6238.json"), "utf8")
) as Rfc6238

const secondsLater = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)

// The middle of a step, so ±1 step stays well clear of the step edges.
const now = new Date(Date.UTC(2026, 10, 3, 9, 30, 15))

describe("Totp", () => {
  layer(Totp.Default)("SHA-1, 6 digits, 30 s", (it) => {
    it.effect("otplib reproduces every RFC 6238 vector (8 digits; the longer SHA-256/512 seeds)", () =>
      Effect.gen(function*() {
        expect(rfc6238.vectors).toHaveLength(18)
        for (const vector of rfc6238.vectors) {
          const code = yield* Effect.promise(() =>
            generate({
              secret: rfc6238.secrets[vector.mode]!.base32,
              algorithm: vector.mode.toLowerCase() as HashAlgorithm,
              digits: 8,
              epoch: vector.time
            })
          )
          expect({ time: vector.time, mode: vector.mode, code }).toEqual({
            time: vector.time,
            mode: vector.mode,
            code: vector.totp
          })
        }
      }))

    it.effect("the service's codes are the last 6 digits of the RFC's SHA-1 vectors", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        for (const vector of rfc6238.vectors.filter(({ mode }) => mode === "SHA1")) {
          const code = yield* totp.generate({ secret: rfc6238.secrets.SHA1!.base32, at: new Date(vector.time * 1000) })
          expect(code).toBe(vector.totp.slice(-6))
        }
      }))

    it.effect("generates 20-byte base32 seeds without padding", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        const secret = totp.generateSecret()
        expect(secret).toMatch(/^[A-Z2-7]{32}$/)
        expect(totp.generateSecret()).not.toBe(secret)
      }))

    it.effect("builds an otpauth URI with every parameter explicit", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        expect(
          totp.uri({ secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", accountName: "jane@example.com", issuer: "Parley" })
        )
          .toBe(
            "otpauth://totp/Parley:jane%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Parley" +
              "&algorithm=SHA1&digits=6&period=30"
          )
        expect(
          totp.uri({ secret: Redacted.make("GEZDGNBVGY3TQOJQ"), accountName: "a b", issuer: "Acme Co" })
        ).toBe(
          "otpauth://totp/Acme%20Co:a%20b?secret=GEZDGNBVGY3TQOJQ&issuer=Acme%20Co&algorithm=SHA1&digits=6&period=30"
        )
      }))

    it.effect("accepts the current step and the next (a clock running ahead), returning the matched step", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        const secret = totp.generateSecret()
        const step = totpStep(now)
        for (const offset of [0, 1]) {
          const code = yield* totp.generate({ secret, at: secondsLater(now, offset * TOTP_PERIOD) })
          const matched = yield* totp.verify({ secret, code, at: now, lastUsedStep: null })
          expect(matched).toEqual(Option.some(step + offset))
        }
      }))

    it.effect("a code dies when its 30-second step ends: the previous step is refused", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        const secret = totp.generateSecret()
        const stepStart = new Date(totpStep(now) * TOTP_PERIOD * 1000)
        const code = yield* totp.generate({ secret, at: stepStart })
        const lastSecond = secondsLater(stepStart, TOTP_PERIOD - 1)
        expect(yield* totp.verify({ secret, code, at: lastSecond, lastUsedStep: null })).toEqual(
          Option.some(totpStep(now))
        )
        const nextStep = secondsLater(stepStart, TOTP_PERIOD)
        expect(yield* totp.verify({ secret, code, at: nextStep, lastUsedStep: null })).toEqual(Option.none())
      }))

    it.effect("refuses codes two steps away, and the previous step", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        const secret = totp.generateSecret()
        for (const offset of [-2, -1, 2]) {
          const code = yield* totp.generate({ secret, at: secondsLater(now, offset * TOTP_PERIOD) })
          expect(yield* totp.verify({ secret, code, at: now, lastUsedStep: null })).toEqual(Option.none())
        }
      }))

    it.effect("accepts a code once: a step at or before lastUsedStep is refused", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        const secret = Redacted.make(totp.generateSecret())
        const code = Redacted.make(yield* totp.generate({ secret, at: now }))
        const first = yield* totp.verify({ secret, code, at: now, lastUsedStep: null })
        expect(first).toEqual(Option.some(totpStep(now)))
        const replay = yield* totp.verify({
          secret,
          code,
          at: secondsLater(now, 5),
          lastUsedStep: Option.getOrThrow(first)
        })
        expect(replay).toEqual(Option.none())
        // An earlier step's code, still inside the skew window, is refused once a later step was used.
        const earlier = yield* totp.generate({ secret, at: secondsLater(now, -TOTP_PERIOD) })
        expect(yield* totp.verify({ secret, code: earlier, at: now, lastUsedStep: totpStep(now) })).toEqual(
          Option.none()
        )
        // The next step's code is still good.
        const next = yield* totp.generate({ secret, at: secondsLater(now, TOTP_PERIOD) })
        expect(yield* totp.verify({ secret, code: next, at: now, lastUsedStep: totpStep(now) })).toEqual(
          Option.some(totpStep(now) + 1)
        )
        // A lastUsedStep from a clock that ran ahead refuses everything, rather than failing.
        expect(yield* totp.verify({ secret, code: next, at: now, lastUsedStep: totpStep(now) + 10 })).toEqual(
          Option.none()
        )
      }))

    it.effect("refuses a wrong code, and input that is not 6 digits, without failing", () =>
      Effect.gen(function*() {
        const totp = yield* Totp
        const secret = totp.generateSecret()
        const code = yield* totp.generate({ secret, at: now })
        const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
        for (const attempt of [wrong, "", "12345", "1234567", "abcdef", ` ${code}`]) {
          expect(yield* totp.verify({ secret, code: attempt, at: now, lastUsedStep: null })).toEqual(Option.none())
        }
      }))
  })
})
