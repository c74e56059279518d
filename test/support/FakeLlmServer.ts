/**
 * The plumbing of the fake LLM servers (FakeOpenAi, FakeAnthropic): a
 * node:http server on loopback that records every request and answers
 * what the test's `respond` decides: an answer in the provider's wire format
 * (plain JSON or server-sent events, with optional delays), an HTTP status
 * with a body and headers (401, 404, 429 with Retry-After, 5xx), or nothing
 * at all (a hang).
 */
import { Effect, type Scope } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** One request the fake received. */
export interface FakeRequest {
  readonly method: string
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: any
  /** When the request's body had arrived (performance.now()). */
  readonly receivedAt: number
}

/** What the model says, in provider-neutral terms; each fake writes it in its own protocol. */
export interface FakeAnswer {
  readonly _tag: "Answer"
  readonly text?: string
  readonly toolCalls?: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly input: unknown }>
  /** The model the answer names (default: the requested one, with a dated suffix). */
  readonly model?: string
  readonly usage?: { readonly input: number; readonly output: number }
  /** Wait this long before answering (the provider's own time). */
  readonly delayMs?: number
  /** In a stream, write this many events and then nothing more, without ending it. */
  readonly stallAfterEvents?: number
}

/** What the fake does with one request. */
export type FakeBehaviour =
  | FakeAnswer
  | {
    readonly _tag: "Status"
    readonly status: number
    readonly body: unknown
    readonly headers?: Readonly<Record<string, string>>
  }
  | { readonly _tag: "Hang" }

export const answer = (options: Omit<FakeAnswer, "_tag"> = {}): FakeBehaviour => ({ _tag: "Answer", ...options })
export const status = (
  code: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {}
): FakeBehaviour => ({ _tag: "Status", status: code, body, headers })
export const hang: FakeBehaviour = { _tag: "Hang" }

/** A running fake. */
export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>` (the provider's path prefix is the fake's to say). */
  readonly origin: string
  readonly requests: Array<FakeRequest>
  /** Decide the answers from now on (the default answers "Hello from the fake."). */
  readonly respond: (decide: (request: FakeRequest) => FakeBehaviour) => void
  /** When each streamed answer's first body byte was written (performance.now()), in request order. */
  readonly firstByteSentAt: Array<number>
}

/** How a fake writes an answer: the JSON body, or the SSE events (each `[event name | null, data]`). */
export interface WireFormat {
  readonly json: (request: FakeRequest, answer: FakeAnswer) => unknown
  readonly events: (request: FakeRequest, answer: FakeAnswer) => ReadonlyArray<readonly [string | null, string]>
  /** Whether a request is a streaming one. */
  readonly streams: (request: FakeRequest) => boolean
  /** Whether a request's path is the fake's; others get a 404 in the provider's error shape. */
  readonly routes: (request: FakeRequest) => FakeBehaviour | undefined
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Start a fake speaking `wire` for the scope. */
export const makeFakeLlmServer = (wire: WireFormat): Effect.Effect<FakeLlmServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ server: Http.Server; fake: FakeLlmServer }>((resume) => {
      const requests: Array<FakeRequest> = []
      const firstByteSentAt: Array<number> = []
      let decide: (request: FakeRequest) => FakeBehaviour = () => answer({ text: "Hello from the fake." })
      const server = Http.createServer((incoming, response) => {
        const chunks: Array<Buffer> = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("end", async () => {
          const text = Buffer.concat(chunks).toString("utf8")
          let body: unknown = text
          try {
            body = text === "" ? null : JSON.parse(text)
          } catch {
            // kept as text
          }
          const request: FakeRequest = {
            method: incoming.method ?? "GET",
            path: incoming.url ?? "/",
            headers: incoming.headers,
            body,
            receivedAt: performance.now()
          }
          requests.push(request)
          const behaviour = wire.routes(request) ?? decide(request)
          if (behaviour._tag === "Hang") return
          if (behaviour._tag === "Status") {
            response.writeHead(behaviour.status, { "content-type": "application/json", ...behaviour.headers })
            return response.end(JSON.stringify(behaviour.body))
          }
          if (behaviour.delayMs !== undefined) await sleep(behaviour.delayMs)
          if (!wire.streams(request)) {
            response.writeHead(200, { "content-type": "application/json" })
            return response.end(JSON.stringify(wire.json(request, behaviour)))
          }
          response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
          response.flushHeaders()
          let first = true
          const events = wire.events(request, behaviour)
          for (const [event, data] of events.slice(0, behaviour.stallAfterEvents ?? events.length)) {
            if (first) firstByteSentAt.push(performance.now())
            first = false
            response.write(`${event === null ? "" : `event: ${event}\n`}data: ${data}\n\n`)
          }
          if (behaviour.stallAfterEvents === undefined) response.end()
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          fake: {
            origin: `http://127.0.0.1:${port}`,
            requests,
            firstByteSentAt,
            respond: (next) => (decide = next)
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))

/** The words of a text with their trailing spaces: how the fakes split a streamed answer. */
export const words = (text: string): ReadonlyArray<string> => text.match(/\S+\s*|\s+/g) ?? []
