/**
 * A server given more descriptors of its listening socket (`MultiAccept.ts`)
 * serves the connections each accepts, as its own; closing it stops every
 * descriptor from accepting.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Net from "node:net"
import { describe, expect, it } from "vitest"
import { acceptMore } from "../../../src/http/MultiAccept.js"

const listening = (handler: Http.RequestListener) =>
  new Promise<Http.Server>((resolve) => {
    const server = Http.createServer(handler)
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

const portOf = (server: Http.Server) => (server.address() as AddressInfo).port

/** A GET on a connection of its own; resolves with the body. */
const get = (port: number) =>
  new Promise<{ readonly body: string }>((resolve, reject) => {
    Http.get({ host: "127.0.0.1", port, agent: false }, (response) => {
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (body += chunk))
      response.on("end", () => resolve({ body }))
    }).on("error", reject)
  })

/** Whether a new connection to `port` is accepted. */
const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

describe("acceptMore", () => {
  it("gives the server the descriptors asked for, and each connection is served by its handler", async () => {
    const server = await listening((_request, response) => response.end("served"))
    expect(await acceptMore(server, 3)).toBe(3)
    const answers = await Promise.all(Array.from({ length: 40 }, () => get(portOf(server))))
    expect(answers.map((answer) => answer.body)).toEqual(Array(40).fill("served"))
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it("accepts through the duplicates for the server's handler when its own descriptor no longer does", async () => {
    const server = await listening((_request, response) => response.end("served"))
    const port = portOf(server)
    expect(await acceptMore(server, 2)).toBe(2)
    // Closes only the server's own descriptor (not through its close, which closes the duplicates too).
    Net.Server.prototype.close.call(server)
    expect(await get(port)).toEqual({ body: "served" })
    await new Promise<void>((resolve) => server.close(() => resolve()))
    expect(await connects(port)).toBe(false)
  })

  it("stops every descriptor from accepting when the server closes", async () => {
    const server = await listening((_request, response) => response.end("served"))
    const port = portOf(server)
    expect(await acceptMore(server, 7)).toBe(7)
    expect(await connects(port)).toBe(true)
    await new Promise<void>((resolve) => server.close(() => resolve()))
    // Without closing the duplicates, the socket would still be open and accept here.
    expect(await connects(port)).toBe(false)
  })

  it("does nothing for 0 more, or for a server that is not listening", async () => {
    const server = Http.createServer()
    expect(await acceptMore(server, 3)).toBe(0)
    const open = await listening((_request, response) => response.end("served"))
    expect(await acceptMore(open, 0)).toBe(0)
    await new Promise<void>((resolve) => open.close(() => resolve()))
  })
})
