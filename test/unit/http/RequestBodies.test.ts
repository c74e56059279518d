/**
 * Every JSON request body refuses an unknown field at every level of the
 * object, so a typo is never silently ignored; a provider's own payload
 * (inbound channel traffic) accepts fields the provider adds. Each body is
 * generated from its schema (or written by hand where the schema has cross-field
 * rules an arbitrary cannot satisfy), checked to decode, then given an unknown
 * field at each object in turn.
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck, Option, Schema } from "effect"
import { Api } from "../../../src/http/Api.js"

/** Provider payloads: they must tolerate fields the provider adds. */
const providerPayloads = new Set(["publicChannels.receive", "publicChannels.voiceGateway"])

/** Hand-written bodies for payloads whose schema has no arbitrary (records of never, cross-field filters). */
const evalCase = {
  name: "refund",
  conversation: [{ role: "assistant", content: "Hello" }, { role: "user", content: "Refund please" }],
  expectations: [
    { kind: "tool-called", tool: "refund", arguments: { match: "subset", value: { order: "A1" } } },
    { kind: "contains", value: "refund" }
  ],
  toolMocks: [{ tool: "refund", output: { ok: true } }]
}
const samples: Record<string, unknown> = {
  "flows.replaceFlow": {
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      {
        id: "ask",
        type: "question",
        position: { x: 0, y: 100 },
        data: {
          prompt: "Size?",
          variable: "size",
          validation: { kind: "choice", options: [{ value: "s", label: "Small" }] }
        }
      },
      {
        id: "hi",
        type: "message",
        position: { x: 0, y: 200 },
        data: { text: "Hi", image: { url: "https://example.com/a.png" }, buttons: [{ label: "A", payload: "a" }] }
      }
    ],
    edges: [{ id: "e1", source: "start", target: "ask", kind: "next" }],
    subflows: [{ id: "faq", name: "FAQ", entryNodeId: "hi" }]
  },
  "flows.createNode": {
    type: "question",
    position: { x: 1, y: 2 },
    data: { prompt: "Size?", variable: "size", validation: { kind: "choice", options: [{ value: "s", label: "S" }] } }
  },
  "flows.updateNode": { type: "message", data: { text: "Hi", buttons: [{ label: "A", payload: "a" }] } },
  "imports.importSource": { format: "mermaid", content: "graph TD; A-->B", target: { kind: "new", name: "Bot" } },
  "aiAgentEvals.create": evalCase,
  "aiAgentEvals.update": evalCase,
  "aiAgentEvals.updateById": { id: "0190c7a0-0000-7000-8000-000000000000", ...evalCase }
}

interface Body {
  readonly operation: string
  readonly schema: Schema.Schema.AnyNoContext
}

const bodies: Array<Body> = []
HttpApi.reflect(Api, {
  onGroup() {},
  onEndpoint({ endpoint, group }) {
    if (Option.isNone(endpoint.payloadSchema) || !["POST", "PUT", "PATCH"].includes(endpoint.method)) return
    bodies.push({
      operation: `${group.identifier}.${endpoint.name}`,
      schema: endpoint.payloadSchema.value as unknown as Schema.Schema.AnyNoContext
    })
  }
})

/** A valid encoded body: written by hand, or the first of a few generated ones that encodes. */
const sampleOf = ({ operation, schema }: Body): Option.Option<unknown> => {
  if (operation in samples) return Option.some(samples[operation])
  const arbitrary = Arbitrary.make(Schema.typeSchema(schema))
  for (let seed = 0; seed < 20; seed++) {
    const [value] = FastCheck.sample(arbitrary, { numRuns: 1, seed })
    const encoded = Schema.encodeEither(schema)(value)
    if (Either.isRight(encoded)) return Option.some(encoded.right)
  }
  return Option.none()
}

/** The paths of every object inside `value`, the value itself first. */
const objectsIn = (value: unknown, at: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectsIn(item, [...at, i]))
  if (value === null || typeof value !== "object") return []
  return [at, ...Object.entries(value).flatMap(([key, item]) => objectsIn(item, [...at, key]))]
}

const withUnknownAt = (value: unknown, at: ReadonlyArray<string | number>) => {
  const copy = structuredClone(value) as any
  let target = copy
  for (const key of at) target = target[key]
  target.__unknown = "x"
  return copy
}

describe("request bodies", () => {
  it("refuse an unknown field at every level, except providers' own payloads", () => {
    const problems: Array<string> = []
    let probed = 0
    for (const body of bodies) {
      if (body.schema.ast._tag === "Declaration" || String(body.schema.ast).includes("Multipart")) continue
      const sampled = sampleOf(body)
      if (Option.isNone(sampled)) {
        problems.push(`${body.operation}: no valid body could be generated; write one in samples`)
        continue
      }
      const sample = sampled.value
      const decode = Schema.decodeUnknownEither(body.schema)
      if (Either.isLeft(decode(sample))) {
        problems.push(`${body.operation}: its sample does not decode`)
        continue
      }
      // A position where even a strict decode takes the field is free-form JSON (a record): not a typo.
      const decodeStrict = Schema.decodeUnknownEither(body.schema, { onExcessProperty: "error" })
      for (const at of objectsIn(sample)) {
        const probe = withUnknownAt(sample, at)
        const accepted = Either.isRight(decode(probe)) && Either.isLeft(decodeStrict(probe))
        if (providerPayloads.has(body.operation) ? !Either.isRight(decode(probe)) : accepted) {
          problems.push(
            `${body.operation}: ${accepted ? "accepts" : "refuses"} an unknown field at ${at.join(".") || "(body)"}`
          )
        }
      }
      probed++
    }
    expect(problems).toEqual([])
    expect(probed).toBeGreaterThan(80)
  })
})
