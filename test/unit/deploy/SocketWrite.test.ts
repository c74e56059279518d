/**
 * The bundle's runner sockets fail a write made after the socket closed as a
 * socket error, not a TypeError (scripts/socketWrite.mjs): the installed
 * package holds the write exactly as listed, a changed package fails
 * loudly, the guard it gets fails with `SocketGenericError` only when the
 * socket is gone, and the bundle the nodes run has it.
 */
import * as Socket from "@effect/platform/Socket"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { bundle } from "../../../scripts/bundle.mjs"
import { from, module, rewriteSocketWrite, to } from "../../../scripts/socketWrite.mjs"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/**
 * The rewritten start of the write, run with `currentSocket`: what it
 * resumed with, or "went on" when it went on to write.
 */
const runGuard = (currentSocket: unknown) => {
  let resumed: Effect.Effect<void, Socket.SocketError> | undefined
  const guard = new Function(
    "Socket",
    "Effect",
    "resume",
    "currentSocket",
    "chunk",
    `${to}\n      return "closed"\n    }\n    return "went on"`
  )
  const went = guard(
    Socket,
    Effect,
    (effect: Effect.Effect<void, Socket.SocketError>) => {
      resumed = effect
    },
    currentSocket,
    new Uint8Array([1])
  )
  return { went, resumed }
}

describe("a runner socket's write after it closed", () => {
  it("is in the installed package exactly as listed, and a changed package fails the build", () => {
    const source = Fs.readFileSync(Path.join(root, "node_modules", module), "utf8")
    expect(source.split(from).length - 1).toBe(1)
    const rewritten = rewriteSocketWrite(source)
    expect(rewritten).toContain(to)
    expect(() => rewriteSocketWrite(source.replace(from, "changed"))).toThrow(
      /expected 1 of the socket's write, found 0/
    )
  })

  it("fails as a socket error when the socket is gone, and writes when it is there", () => {
    const gone = runGuard(undefined)
    expect(gone.went).toBeUndefined()
    const exit = Effect.runSyncExit(gone.resumed!)
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error).toMatchObject({
      _tag: "SocketError",
      reason: "Write"
    })
    const there = runGuard({ write: () => true })
    expect(there.went).toBe("went on")
    expect(there.resumed).toBeUndefined()
  })

  it("is in the bundle the nodes run", () => {
    expect(Fs.readFileSync(bundle, "utf8")).toContain("The socket closed before the write")
  })
})
