/**
 * A loopback tool server for agent tests: `/ok/<name>` answers JSON naming
 * the path, `/fail/<name>` answers 500; every request is recorded with its
 * `Idempotency-Key`, so a test can count how often each step's call arrived.
 */
import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export interface ToolServer {
  readonly origin: string
  readonly calls: Array<{ readonly path: string; readonly key: string | undefined; readonly body: string }>
}

/** Start one for the scope. */
export const toolServer = Effect.acquireRelease(
  Effect.async<{ server: Http.Server; tools: ToolServer }>((resume) => {
    const calls: ToolServer["calls"] = []
    const server = Http.createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        const path = request.url ?? "/"
        calls.push({ path, key: request.headers["idempotency-key"] as string | undefined, body })
        if (path.startsWith("/fail")) {
          response.writeHead(500, { "content-type": "application/json" })
          response.end(JSON.stringify({ error: "the order system is down" }))
          return
        }
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ path, answer: `result of ${path}` }))
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        server,
        tools: { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls }
      })))
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map(({ tools }) => tools))
