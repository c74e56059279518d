/**
 * How a busy Node process takes new connections: one per turn of its event
 * loop. A server whose loop is kept busy 10 ms per turn (as a loaded Parley
 * node's is, fibers in 5 ms slices plus the I/O callbacks) is sent 50
 * requests at once, first on 50 new connections, then again on the same,
 * kept-alive connections; the times the answers arrived are printed.
 *
 * On Node 20.20 (libuv 1.46), 2 shared CPUs, 27 November 2026: new
 * connections answered 55, 69, 80, ... 592 ms after they were sent, about one
 * turn (11 ms) apart; kept-alive connections all within 9-16 ms. `strace`
 * shows one `accept4` per `epoll_pwait`, never one that found the queue
 * empty: libuv accepts a single connection each time the listening socket is
 * reported ready. This is what the first second of `bench:overload` shows
 * (bench/README.md, overload), and why a balancer that keeps its upstream
 * connections open (deploy/nginx.conf: `keepalive 32`) matters in front of a
 * busy node.
 *
 *   node bench/overload/accepts.mjs
 */
import { fork } from "node:child_process"
import * as Http from "node:http"

const CONNECTIONS = 50
const BUSY_MILLIS = 10

if (process.argv[2] === "server") {
  const server = Http.createServer((_request, response) => response.end("ok"))
  server.listen(0, "127.0.0.1", () => process.send(server.address().port))
  const busy = () => {
    const started = performance.now()
    while (performance.now() - started < BUSY_MILLIS);
    setImmediate(busy)
  }
  setImmediate(busy)
} else {
  const child = fork(new URL(import.meta.url).pathname, ["server"])
  child.on("message", async (port) => {
    const agent = new Http.Agent({ keepAlive: true, maxSockets: Infinity })
    const burst = async () => {
      const started = performance.now()
      const times = await Promise.all(Array.from({ length: CONNECTIONS }, () =>
        new Promise((resolve) => {
          Http.get({ host: "127.0.0.1", port, agent, path: "/" }, (response) => {
            response.resume()
            response.on("end", () => resolve(Math.round(performance.now() - started)))
          })
        })))
      return times.sort((a, b) => a - b).join(" ")
    }
    console.log(
      `server busy ${BUSY_MILLIS} ms per turn of its event loop; ${CONNECTIONS} requests at once, answered after (ms):`
    )
    console.log(`  on new connections:        ${await burst()}`)
    console.log(`  on kept-alive connections: ${await burst()}`)
    child.kill()
    process.exit(0)
  })
}
