/**
 * The providers' lean HTTP client against a loopback server: an answer read
 * whole (text and JSON from the same response), a stream, a time-out on the
 * answer's head as the caller's typed error, an interrupted request aborted
 * at the server, and a body it cannot send refused before any connection.
 */
import { HttpClientError, HttpClientRequest } from "@effect/platform"
import { Agent } from "@effect/platform-node/Undici"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Deferred, Effect, Fiber, Stream } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { makeUndiciHttpClient } from "../../../src/providers/llm/UndiciHttpClient.js"

/** A loopback server: `/json` answers, `/stream` sends three lines, `/hang` never answers (each reports its socket closing). */
const server = Effect.acquireRelease(
  Effect.async<{ origin: string; hangs: Array<Deferred.Deferred<void>>; http: Http.Server }>((resume) => {
    const hangs: Array<Deferred.Deferred<void>> = []
    const http = Http.createServer((request, response) => {
      if (request.url === "/json") {
        response.writeHead(200, { "content-type": "application/json", "x-seen": String(request.headers["x-test"]) })
        return response.end(JSON.stringify({ hello: "world" }))
      }
      if (request.url === "/stream") {
        response.writeHead(200, { "content-type": "text/plain" })
        response.write("one\n")
        response.write("two\n")
        return response.end("three\n")
      }
      const closed = Deferred.unsafeMake<void>(undefined as never)
      hangs.push(closed)
      request.socket.on("close", () => Deferred.unsafeDone(closed, Effect.void))
    })
    http.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
        hangs,
        http
      })))
  }),
  ({ http }) =>
    Effect.async<void>((resume) => {
      http.close(() => resume(Effect.void))
    })
)

const timedOut = (request: HttpClientRequest.HttpClientRequest) =>
  new HttpClientError.RequestError({ request, reason: "Transport", description: "head timed out" })

describe("the providers' HTTP client", () => {
  it.scopedLive("reads an answer whole, text then JSON, with its status and headers", () =>
    Effect.gen(function*() {
      const { origin } = yield* server
      const dispatcher = new Agent()
      const client = makeUndiciHttpClient(dispatcher, 5_000, timedOut)
      const response = yield* client.execute(
        HttpClientRequest.post(`${origin}/json`).pipe(
          HttpClientRequest.setHeader("x-test", "yes"),
          HttpClientRequest.bodyUnsafeJson({ a: 1 })
        )
      )
      expect(response.status).toBe(200)
      expect(response.headers["x-seen"]).toBe("yes")
      expect(yield* response.text).toBe(`{"hello":"world"}`)
      expect(yield* response.json).toEqual({ hello: "world" })
      const streamed = yield* client.execute(HttpClientRequest.get(`${origin}/stream`)).pipe(
        Effect.flatMap((answer) => Stream.runCollect(Stream.decodeText(answer.stream)))
      )
      expect(Chunk.join(streamed, "")).toBe("one\ntwo\nthree\n")
      yield* Effect.promise(() => dispatcher.close())
    }))

  it.scopedLive("a head that does not come in time is the caller's error; an interrupted request is aborted", () =>
    Effect.gen(function*() {
      const { hangs, origin } = yield* server
      const dispatcher = new Agent()
      const slow = makeUndiciHttpClient(dispatcher, 200, timedOut)
      const error = yield* Effect.flip(slow.execute(HttpClientRequest.get(`${origin}/hang`)))
      expect(error._tag).toBe("RequestError")
      expect(error.description).toBe("head timed out")
      const patient = makeUndiciHttpClient(dispatcher, 60_000, timedOut)
      const fiber = yield* Effect.fork(patient.execute(HttpClientRequest.get(`${origin}/hang`)))
      yield* Effect.sleep(300)
      expect(hangs).toHaveLength(2)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(hangs[1]!).pipe(Effect.timeoutFail({ duration: 2_000, onTimeout: () => "not aborted" }))
      yield* Effect.promise(() => dispatcher.destroy())
    }))

  it.scopedLive("a body it cannot send is refused before any connection", () =>
    Effect.gen(function*() {
      const dispatcher = new Agent()
      const client = makeUndiciHttpClient(dispatcher, 1_000, timedOut)
      const error = yield* Effect.flip(client.execute(
        HttpClientRequest.post("http://127.0.0.1:9/never").pipe(
          HttpClientRequest.bodyStream(Stream.make(new Uint8Array([1])))
        )
      ))
      expect(error._tag).toBe("RequestError")
      expect(error.reason).toBe("Encode")
      yield* Effect.promise(() => dispatcher.close())
    }))
})
