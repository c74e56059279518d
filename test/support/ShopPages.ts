/**
 * A shop's page for the widget's browser tests: hostile styles, a link before
 * the chat and a strict Content-Security-Policy (scripts and connections to
 * Parley only, no inline styles but its own), serving the snippet `snippet()`
 * gives at the time, on a loopback port of its own.
 */
import { Effect } from "effect"
import * as Http from "node:http"
import type * as Net from "node:net"

export const shopPages = (snippet: () => string, parley: string) =>
  Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const server = Http.createServer((_, response) => {
        response.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy":
            `default-src 'none'; script-src ${parley}/embed/v1/widget.js; connect-src ${parley}; style-src 'nonce-shop'`
        })
        response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parley Books</title>
<style nonce="shop">* { color: red !important; font-size: 40px !important } button, input { display: none !important }</style>
</head><body><h1>Parley Books</h1><p><a href="#catalogue">Our catalogue</a></p>${snippet()}</body></html>`)
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      return Effect.void
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((server) => (server.address() as Net.AddressInfo).port))
