/**
 * The Node HTTP server listens before the app behind it is built (migrations
 * run in between). Until the app attaches its request handler, every request
 * gets a 503 `NotReady` instead of hanging on an open socket.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"

const starting = (_request: IncomingMessage, response: ServerResponse) => {
  const body = JSON.stringify({ _tag: "NotReady", message: "Parley is starting" })
  response.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "retry-after": "1"
  })
  response.end(body)
}

/** A server that answers 503 until the first other request handler is attached. */
export const createStartingServer = (): Server => {
  const server = createServer(starting)
  const onNewListener = (event: string | symbol, listener: unknown) => {
    if (event === "request" && listener !== starting) {
      server.off("request", starting)
      server.off("newListener", onNewListener)
    }
  }
  server.on("newListener", onNewListener)
  return server
}
