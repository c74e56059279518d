/**
 * The node's HTTP server, with a front door: a guard that sees each request
 * as Node delivers it, before it becomes an Effect (a request object, a fiber,
 * a span, the middleware), and may answer it there. It is for answers that
 * must cost next to nothing because there are many of them exactly when the
 * node has no time to spare: admission control's refusals under overload
 * (`RequestAdmission.ts`). Offered twice what it could do, a node that
 * refused inside the app spent about 1.5 ms of its one thread on each
 * refusal, a third of its time, and completed 60% of its peak; refused at the
 * door, a refusal is a lookup and one write.
 *
 * The guard is installed by the app once it is built (`Http.ts`) and removed
 * when it stops; until then the server answers as `StartingServer.ts` does.
 * Where the server is not this one (a test's), there is no front door and the
 * app's middleware refuses the same requests with the same answers.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Runtime } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { ListenOptions } from "node:net"
import { AcceptsPerTurn } from "../config/Settings.js"
import { acceptMore } from "./MultiAccept.js"
import { createStartingServer } from "./StartingServer.js"

/** Answers a request and returns `true`, or leaves it to the app and returns `false`. */
export type Guard = (request: IncomingMessage, response: ServerResponse) => boolean

export class FrontDoor extends Effect.Service<FrontDoor>()("parley/http/FrontDoor", {
  effect: Effect.gen(function*() {
    const accepts = yield* AcceptsPerTurn
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    let guard: Guard | undefined

    /** Once listening, the server accepts up to `accepts` connections per turn of the event loop (`MultiAccept.ts`). */
    const acceptMany = (server: Server) =>
      acceptMore(server, accepts - 1).then((got) => {
        if (got < accepts - 1) {
          runFork(
            Effect.logWarning("The HTTP server accepts fewer new connections per turn of the event loop than set").pipe(
              Effect.annotateLogs({ set: accepts, accepting: got + 1 })
            )
          )
        }
      })

    /**
     * A starting server whose `request` events meet the guard before any
     * listener, and which accepts several connections per turn.
     */
    const createServer = (): Server => {
      const server = createStartingServer()
      if (accepts > 1) server.once("listening", () => void acceptMany(server))
      const emit = server.emit
      // Node delivers a request by emitting it; answered here, no listener hears of it.
      server.emit = function(this: Server, event: string | symbol, ...args: Array<any>): boolean {
        if (event === "request" && guard !== undefined && guard(args[0], args[1])) return true
        return Reflect.apply(emit, this, [event, ...args]) as boolean
      } as typeof server.emit
      return server
    }

    /** Puts `next` at the door for the life of the scope. */
    const guarded = (next: Guard) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          guard = next
        }),
        () =>
          Effect.sync(() => {
            if (guard === next) guard = undefined
          })
      )

    return { createServer, guarded } as const
  })
}) {}

/** A Node HTTP server with a front door, listening as `options` say; the door is in the context for the app. */
export const frontDoorServer = (options: ListenOptions) =>
  Layer.unwrapEffect(Effect.map(FrontDoor, (door) => NodeHttpServer.layer(door.createServer, options))).pipe(
    Layer.provideMerge(FrontDoor.Default)
  )
