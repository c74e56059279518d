/**
 * A fake OpenAI-compatible embeddings server on loopback (`POST
 * /v1/embeddings`) whose vectors are a real, if simple, embedding: feature
 * hashing. Each word of a text (lower-cased, letters and digits) is first
 * mapped to its concept by a small synonym table (`reimbursement` and
 * `refund` are one concept), then hashed, with the model's name, to one of
 * `DIMENSIONS` coordinates and a sign; the counts are normalised to unit
 * length. Texts sharing concepts are near by cosine even when they share no
 * word, which lexical search cannot see; two models give unrelated vectors.
 * `failing` makes it answer 500 in OpenAI's error shape.
 */
import { Effect, type Scope } from "effect"
import * as Crypto from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/** The vectors' length. */
export const DIMENSIONS = 256

/** Words and the concept they stand for (the concept is itself a word of the table's documents). */
const SYNONYMS: Readonly<Record<string, string>> = {
  reimbursement: "refund",
  reimbursed: "refund",
  refunds: "refund",
  refunded: "refund",
  money: "refund",
  voucher: "gift",
  vouchers: "gift",
  present: "gift",
  parcel: "shipping",
  parcels: "shipping",
  delivery: "shipping"
}

/** The concepts of a text's words. */
const conceptsOf = (text: string): Array<string> =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map((word) => SYNONYMS[word] ?? word)

/** The feature-hashed, unit-length embedding of `text` by `model`. */
export const hashedEmbedding = (model: string, text: string): Array<number> => {
  const vector = Array.from({ length: DIMENSIONS }, () => 0)
  for (const concept of conceptsOf(text)) {
    const hash = Crypto.createHash("sha256").update(`${model}\u0000${concept}`).digest()
    vector[hash.readUInt32LE(0) % DIMENSIONS]! += (hash[4]! & 1) === 0 ? 1 : -1
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0))
  return norm === 0 ? vector : vector.map((value) => value / norm)
}

/** A running fake. */
export interface FakeEmbeddings {
  /** The base URL a connection names: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string
  /** Each request's model and inputs, in order. */
  readonly requests: Array<{ readonly model: string; readonly input: ReadonlyArray<string> }>
  /** While true, every request answers 500. */
  failing: boolean
}

const readBody = (request: Http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const parts: Array<Buffer> = []
    request.on("data", (part: Buffer) => parts.push(part))
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")))
    request.on("error", reject)
  })

/** Start the fake for the scope. */
export const makeFakeEmbeddings: Effect.Effect<FakeEmbeddings, never, Scope.Scope> = Effect.gen(function*() {
  const state = { requests: [] as FakeEmbeddings["requests"], failing: false }
  const send = (response: Http.ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
  const server = yield* Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const server = Http.createServer((request, response) => {
        void readBody(request).then((text) => {
          if (request.method !== "POST" || request.url !== "/v1/embeddings") {
            return send(response, 404, { error: { message: "Not found", type: "invalid_request_error" } })
          }
          const body = JSON.parse(text) as { model: string; input: string | Array<string> }
          const input = Array.isArray(body.input) ? body.input : [body.input]
          state.requests.push({ model: body.model, input })
          if (state.failing) {
            return send(response, 500, { error: { message: "The server had an error.", type: "server_error" } })
          }
          send(response, 200, {
            object: "list",
            data: input.map((item, index) => ({
              object: "embedding",
              index,
              embedding: hashedEmbedding(body.model, item)
            })),
            model: body.model,
            usage: { prompt_tokens: input.length, total_tokens: input.length }
          })
        })
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )
  return Object.assign(state, { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })
})
