/**
 * More than one new connection per turn of the event loop. Since libuv 1.45
 * (libuv/libuv#3696, Node 20) a listening socket accepts a single connection
 * each time the event loop finds it ready. A loaded node's loop turns every
 * 10 ms or so, so a burst of clients opening connections waited one turn
 * each in the kernel's queue: 50 new connections to a busy server were
 * answered over 560 ms, and under overload those were the refusals' whole
 * tail (`bench/overload/accepts.mjs`; docs/OPERATIONS.md, "New connections").
 *
 * Several descriptors of the same listening socket, each watched by the event
 * loop, each accept one per turn (nginx's `multi_accept`, in effect). Node 20
 * has no `dup` and no `reusePort` (22.12), so a short-lived helper process is
 * given the server's handle over IPC and sends it back as many times as asked:
 * each message carries a new descriptor (SCM_RIGHTS). The helper never listens
 * (it handles the raw handle, not a server), and exits once it has sent them.
 * Each duplicate hands its connections to the HTTP server, which serves them
 * as its own (its idle and all-connections closing included); closing the
 * server closes the duplicates too, and its callback comes once they have
 * closed as well.
 */
import { spawn } from "node:child_process"
import type { Server } from "node:http"
import * as Net from "node:net"

/** How long the helper has to send the descriptors back before the node goes on with one. */
const HELPER_TIMEOUT_MILLIS = 5_000

const HELPER = `process.on("message", (count, handle) => {
  for (let i = 0; i < count; i++) process.send("duplicate", handle)
  process.send("done", () => process.exit(0))
})`

/** The server's listening handle, as `child_process` sends one (undocumented but what `cluster` sends). */
const handleOf = (server: Server): unknown => (server as unknown as { readonly _handle: unknown })._handle

/**
 * Gives the listening `server` `extra` more descriptors of its socket, each
 * accepting for it; resolves with how many it got (fewer when the helper
 * failed or timed out, 0 when `extra` is 0 or the server is not listening on
 * a handle).
 */
export const acceptMore = (server: Server, extra: number): Promise<number> => {
  const handle = handleOf(server)
  if (extra <= 0 || handle === null || handle === undefined) return Promise.resolve(0)
  const duplicates: Array<Net.Server> = []
  const close = server.close
  server.close = function(this: Server, callback?: (error?: Error) => void) {
    const closed = duplicates.splice(0).map((duplicate) =>
      new Promise<void>((resolve) => duplicate.close(() => resolve()))
    )
    return Reflect.apply(close, this, [(error?: Error) => {
      void Promise.all(closed).then(() => callback?.(error))
    }]) as Server
  } as typeof server.close

  return new Promise((resolve) => {
    const helper = spawn(process.execPath, ["-e", HELPER], { stdio: ["ignore", "ignore", "ignore", "ipc"], env: {} })
    // Resolved once the helper has exited: until then its copy of the descriptor keeps the socket open.
    const timer = setTimeout(() => helper.kill("SIGKILL"), HELPER_TIMEOUT_MILLIS)
    const settle = () => {
      clearTimeout(timer)
      resolve(duplicates.length)
    }
    helper.once("error", settle)
    helper.once("exit", settle)
    helper.on("message", (message: unknown, duplicate: unknown) => {
      if (message !== "duplicate") return
      // A server closed meanwhile takes no more descriptors: this one is closed at once.
      const accepting = new Net.Server((socket) => server.emit("connection", socket))
      // An accept that fails (out of descriptors, say) is the server's error, as on its own descriptor.
      accepting.on("error", (error) => server.emit("error", error))
      accepting.listen(duplicate as Net.ListenOptions)
      if (server.listening) duplicates.push(accepting)
      else accepting.close()
    })
    try {
      helper.send(extra, handle as Net.Server)
    } catch {
      // No channel (the helper did not start): its `error` or `exit` settles.
      helper.kill("SIGKILL")
    }
  })
}
