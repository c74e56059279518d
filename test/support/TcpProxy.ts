/**
 * A TCP proxy in front of the shared PostgreSQL that a test can cut and
 * restore, so a node's database "goes away" without touching the real server.
 */
import * as Net from "node:net"

export interface TcpProxy {
  readonly port: number
  /** Refuse new connections and drop every open one. */
  readonly cut: () => Promise<void>
  /** Accept connections again, on the same port. */
  readonly restore: () => Promise<void>
  readonly close: () => Promise<void>
}

export const startTcpProxy = async (target: { host: string; port: number }): Promise<TcpProxy> => {
  const sockets = new Set<Net.Socket>()
  const server = Net.createServer((client) => {
    const upstream = Net.connect(target.port, target.host)
    // Every query is a small write waiting for a small answer: Nagle's delay would add ~40 ms to each.
    client.setNoDelay(true)
    upstream.setNoDelay(true)
    sockets.add(client).add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on("error", drop).on("close", drop)
    upstream.on("error", drop).on("close", drop)
    client.pipe(upstream).pipe(client)
  })
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => resolve((server.address() as Net.AddressInfo).port))
    })
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      if (server.listening) server.close(() => resolve())
      else resolve()
    })
  const port = await listen(0)
  return { port, cut: stop, restore: () => listen(port).then(() => undefined), close: stop }
}
