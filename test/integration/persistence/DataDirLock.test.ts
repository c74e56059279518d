import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { acquireDataDirLock } from "../../../src/persistence/DataDirLock.js"

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-lock-"))

describe("DataDirLock", () => {
  it.effect("refuses a second holder while the first holds the directory, naming the holder", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const first = yield* Scope.make()
      yield* Scope.extend(acquireDataDirLock(dir), first)
      const second = yield* Effect.scoped(acquireDataDirLock(dir)).pipe(Effect.flip)
      expect(second._tag).toBe("DataDirLocked")
      expect(second.message).toContain(`pid ${process.pid}`)
      expect(second.message).toContain(dir)
      yield* Scope.close(first, Exit.void)
      expect(Fs.existsSync(Path.join(dir, "parley.lock"))).toBe(false)
      yield* Effect.scoped(acquireDataDirLock(dir))
    }))

  it.effect("takes over a lock left by a process that no longer runs", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      Fs.writeFileSync(
        Path.join(dir, "parley.lock"),
        JSON.stringify({ pid: 2 ** 22 + 12345, host: Os.hostname(), startedAt: "2020-01-01T00:00:00.000Z" })
      )
      yield* Effect.scoped(acquireDataDirLock(dir))
    }))

  it.effect("respects a lock held by a process on another host", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      Fs.writeFileSync(
        Path.join(dir, "parley.lock"),
        JSON.stringify({ pid: 1, host: "some-other-host", startedAt: "2020-01-01T00:00:00.000Z" })
      )
      const error = yield* Effect.scoped(acquireDataDirLock(dir)).pipe(Effect.flip)
      expect(error.message).toContain("some-other-host")
    }))
})
