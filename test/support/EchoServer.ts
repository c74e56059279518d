/**
 * A loopback HTTP server for outbound calls (HTTP tools, the address rule):
 * it counts the connections it accepts and answers by path:
 * - `/echo`: 200 with the method, URL, headers and body it got, as JSON;
 * - `/redirect?to=<url>[&status=302]`: a redirect to `to`;
 * - `/loop`: a redirect to itself;
 * - `/slow?ms=<n>`: 200 after n ms;
 * - `/big?bytes=<n>`: 200 with n bytes, sent in 16 KiB chunks, no length header;
 * - `/status?code=<n>`: that status.
 */
import { Effect, type Scope } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** A running echo server. */
export interface EchoServer {
  readonly port: number
  readonly url: (path: string) => string
  /** Connections accepted so far. */
  readonly connections: () => number
  /** Requests received so far (with their headers), latest last. */
  readonly requests: Array<{ readonly url: string; readonly headers: Http.IncomingHttpHeaders }>
}

const handle =
  (server: Http.Server, requests: EchoServer["requests"]) =>
  (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://x")
    requests.push({ url: request.url ?? "/", headers: request.headers })
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const port = (server.address() as AddressInfo).port
      switch (url.pathname) {
        case "/echo": {
          const body = JSON.stringify({
            method: request.method,
            url: request.url,
            headers: request.headers,
            body: Buffer.concat(chunks).toString("utf8")
          })
          response.writeHead(200, {
            "content-type": "application/json",
            "x-echo-authorization": request.headers.authorization ?? ""
          })
          return response.end(body)
        }
        case "/redirect":
          response.writeHead(Number(url.searchParams.get("status") ?? 302), {
            location: url.searchParams.get("to") ?? "/echo"
          })
          return response.end()
        case "/loop":
          response.writeHead(302, { location: `http://127.0.0.1:${port}/loop` })
          return response.end()
        case "/slow":
          return void setTimeout(() => response.end("slow"), Number(url.searchParams.get("ms") ?? 1000))
        case "/big": {
          let left = Number(url.searchParams.get("bytes") ?? 0)
          response.writeHead(200, { "content-type": "text/plain" })
          const chunk = Buffer.alloc(16_384, "x")
          const write = () => {
            while (left > 0) {
              const part = chunk.subarray(0, Math.min(left, chunk.length))
              left -= part.length
              if (!response.write(part)) return void response.once("drain", write)
            }
            response.end()
          }
          return write()
        }
        case "/status":
          response.writeHead(Number(url.searchParams.get("code") ?? 200))
          return response.end("status")
        default:
          response.writeHead(404)
          return response.end()
      }
    })
  }

/** An echo server on a random port of 127.0.0.1, closed with the scope. */
export const echoServer: Effect.Effect<EchoServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ readonly server: Http.Server; readonly echo: EchoServer }>((resume) => {
    let connections = 0
    const requests: EchoServer["requests"] = []
    const server = Http.createServer()
    server.on("request", handle(server, requests))
    server.on("connection", () => connections++)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port
      resume(Effect.succeed({
        server,
        echo: { port, url: (path) => `http://127.0.0.1:${port}${path}`, connections: () => connections, requests }
      }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map(({ echo }) => echo))
