/**
 * An esbuild plugin for the bundle (`bundle.mjs`): a write to a runner's
 * socket that has just closed fails as a write to a closed socket does.
 *
 * `@effect/platform-node-shared`'s NodeSocket waits for its latch to open
 * before a write, then reads the current socket. When a connection opens
 * and closes before the waiting write resumes (a peer killed while another
 * node connects to it, on a busy node), the latch was open for the write but
 * the socket is gone: the write threw `TypeError: Cannot read properties of
 * undefined (reading 'write')`, which the cluster's RPC client turns into a
 * defect, and the turn it carried was answered 500 (the chaos suite's kill
 * -9, 29 November 2026). Rewritten, it fails with the `SocketGenericError`
 * a write to a closed socket gives, which the client also turns into a
 * defect, and which a turn's sender knows to send again with the same key
 * (`src/services/runtime/SendTurn.ts`, "RunnerUnreachable").
 *
 * The build fails when the module does not hold the listed text exactly
 * once: an upgraded package is reviewed here.
 */
import * as Fs from "node:fs"

export const module = "@effect/platform-node-shared/dist/esm/NodeSocket.js"

/** The start of the write: the socket read once the latch is open. */
export const from = "    const conn = currentSocket;\n    if (Socket.isCloseEvent(chunk)) {"

export const to = "    const conn = currentSocket;\n" +
  "    if (conn === undefined) {\n" +
  "      return resume(Effect.fail(new Socket.SocketGenericError({ reason: \"Write\", cause: new Error(\"The socket closed before the write\") })));\n" +
  "    }\n" +
  "    if (Socket.isCloseEvent(chunk)) {"

/** `source` with the guard; throws when the write is not there exactly once. */
export const rewriteSocketWrite = (source) => {
  const found = source.split(from).length - 1
  if (found !== 1) {
    throw new Error(`${module}: expected 1 of the socket's write, found ${found}; review scripts/socketWrite.mjs`)
  }
  return source.replace(from, to)
}

/** The esbuild plugin; it also fails the build when the module was never loaded. */
export const socketWriteAfterClose = {
  name: "parley-socket-write-after-close",
  setup(build) {
    let loaded = false
    build.onLoad(
      { filter: /node_modules\/@effect\/platform-node-shared\/dist\/esm\/NodeSocket\.js$/ },
      async (args) => {
        loaded = true
        return { contents: rewriteSocketWrite(await Fs.promises.readFile(args.path, "utf8")), loader: "js" }
      }
    )
    build.onEnd((result) => {
      if (result.errors.length === 0 && !loaded) {
        return { errors: [{ text: `scripts/socketWrite.mjs: never loaded ${module}` }] }
      }
    })
  }
}
