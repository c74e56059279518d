/**
 * bench:tools: the overhead of an HTTP tool call over a bare `fetch` of the
 * same loopback URL, in one run. The tool-call service runs in-process
 * (input validation, templates, the address rule, the guarded agent, masking;
 * no Parley HTTP in between), with no secrets (the vault is a stub).
 * Prints the machine, N, and p50/p99 of both. Target: overhead p50 <= 1 ms.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Os from "node:os"
import type { HttpToolDefinition } from "../../src/domain/workspace/HttpToolDefinition.js"
import { SecretValues } from "../../src/services/workspace/SecretValues.js"
import { ToolCalls } from "../../src/services/workspace/ToolCalls.js"

const N = Number(process.env.BENCH_N ?? 2000)
const WARMUP = 200

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const server = Http.createServer((_, response) => {
  response.writeHead(200, { "content-type": "application/json" })
  response.end(JSON.stringify({ ok: true, order: "A-1" }))
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const port = (server.address() as AddressInfo).port
const url = `http://127.0.0.1:${port}/orders/A-1?x=1`

const definition: HttpToolDefinition = {
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "string", pattern: "^[A-Z0-9-]+$" } },
    required: ["orderId"]
  },
  method: "GET",
  url: `http://127.0.0.1:${port}/orders/{{input.orderId}}`,
  headers: {},
  query: { x: { value: "1" } },
  body: null,
  timeoutSeconds: 10,
  maxResponseBytes: 1_048_576,
  allowedDomains: []
}

const vault = Layer.succeed(
  SecretValues,
  SecretValues.of({ reveal: () => Effect.die("no secrets"), missing: () => Effect.succeed([]) })
)
const layer = ToolCalls.Default.pipe(
  Layer.provide(vault),
  Layer.provide(
    Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["PARLEY_TOOL_ALLOWED_HOSTS", "127.0.0.1/32"]])))
  )
)
const caller = {
  workspaceId: "00000000-0000-7000-8000-000000000001" as never,
  usedBy: { kind: "workspace-tool" as const, id: "bench" },
  actor: { kind: "system" as const }
}

const timeFetch = async () => {
  const started = performance.now()
  const response = await fetch(url)
  await response.text()
  return performance.now() - started
}

await Effect.gen(function*() {
  const calls = yield* ToolCalls
  const timeTool = Effect.gen(function*() {
    const started = performance.now()
    yield* calls.call(caller, definition, { orderId: "A-1" })
    return performance.now() - started
  })
  const fetches: Array<number> = []
  const tools: Array<number> = []
  for (let i = 0; i < WARMUP + N; i++) {
    // interleaved, so both see the same machine load
    const f = yield* Effect.promise(timeFetch)
    const t = yield* timeTool
    if (i >= WARMUP) {
      fetches.push(f)
      tools.push(t)
    }
  }
  fetches.sort((a, b) => a - b)
  tools.sort((a, b) => a - b)
  const ms = (value: number) => `${value.toFixed(3)} ms`
  console.log(`machine: ${Os.cpus().length} x ${Os.cpus()[0]?.model ?? "?"}, node ${process.version}; N = ${N}`)
  console.log(`bare fetch: p50 ${ms(percentile(fetches, 0.5))}, p99 ${ms(percentile(fetches, 0.99))}`)
  console.log(`tool call:  p50 ${ms(percentile(tools, 0.5))}, p99 ${ms(percentile(tools, 0.99))}`)
  console.log(`overhead p50: ${ms(percentile(tools, 0.5) - percentile(fetches, 0.5))} (target <= 1 ms)`)
}).pipe(Effect.provide(layer), Effect.runPromise)
server.close()
