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
 * reported ready (since libuv 1.45, libuv/libuv#3696, relying on
 * level-triggered polling for the next). This is what the first second of
 * `bench:overload` shows (bench/README.md, overload), and why a balancer that
 * keeps its upstream connections open (deploy/nginx.conf: `keepalive 32`)
 * matters in front of a busy node.
 *
 * The same server is then run again with `DUPLICATES` more descriptors of its
 * listening socket, each watched by the event loop and each accepting one
 * connection per turn: Node 20 has no `dup`, so a helper process receives the
 * server's handle over IPC and sends it back that many times (each message
 * carries a new descriptor, SCM_RIGHTS), as a Parley node's server does
 * (`src/http/MultiAccept.ts`, `PARLEY_ACCEPTS_PER_TURN`; nginx's
 * `multi_accept`, in effect). On 28 November 2026, same machine: the 50 new
 * connections answered within 31-104 ms with 7 duplicates, 31-561 ms without
 * (kept-alive ones 11-18 and 10-15 ms).
 *
 *   node bench/overload/accepts.mjs
 */
import { fork } from "node:child_process"
import * as Http from "node:http"

const CONNECTIONS = 50
const BUSY_MILLIS = 10
const DUPLICATES = 7

if (process.argv[2] === "helper") {
  // Sends the server it is given back `count` times, each time as a new descriptor in the receiver.
  process.on("message", (count, server) => {
    for (let i = 0; i < count; i++) process.send("duplicate", server)
    process.send("done")
  })
} else if (process.argv[2] === "server") {
  const duplicates = Number(process.argv[3])
  const server = Http.createServer((_request, response) => response.end("ok"))
  server.listen(0, "127.0.0.1", () => {
    if (duplicates === 0) return process.send(server.address().port)
    const helper = fork(new URL(import.meta.url).pathname, ["helper"])
    helper.on("message", (message, duplicate) => {
      if (message === "duplicate") duplicate.on("connection", (socket) => server.emit("connection", socket))
      else {
        helper.kill()
        process.send(server.address().port)
      }
    })
    helper.send(duplicates, server)
  })
  const busy = () => {
    const started = performance.now()
    while (performance.now() - started < BUSY_MILLIS);
    setImmediate(busy)
  }
  setImmediate(busy)
} else {
  const run = (duplicates) =>
    new Promise((done) => {
      const child = fork(new URL(import.meta.url).pathname, ["server", String(duplicates)])
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
          `server busy ${BUSY_MILLIS} ms per turn of its event loop, ${duplicates} duplicate listening descriptors; ` +
            `${CONNECTIONS} requests at once, answered after (ms):`
        )
        console.log(`  on new connections:        ${await burst()}`)
        console.log(`  on kept-alive connections: ${await burst()}`)
        agent.destroy()
        child.kill()
        done()
      })
    })
  await run(0)
  await run(DUPLICATES)
  process.exit(0)
}
