/**
 * Export then import gives back the same graph up to ids and layout, for
 * draw.io, Mermaid and Parley documents: through the typed client, from a hand-made graph
 * with every node type and route, a sub-flow and a jump, and from an
 * imported corpus diagram.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import { AssistantCreate, type AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { flowShape } from "../../../src/domain/exports/FlowShape.js"
import { DrawioImportRequest, SingleSourceImport } from "../../../src/domain/imports/ImportRequest.js"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { corpus } from "../../support/Fixtures.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

const at = (x: number, y: number) => ({ x, y })
const graph = {
  nodes: [
    { id: "start", type: "start", position: at(0, 0), data: {} },
    {
      id: "hello",
      type: "message",
      label: "Greeting \"quoted\" <b>",
      position: at(0, 100),
      data: { text: "Hi {{name}}!\nTwo lines; a semicolon", buttons: [{ label: "Go", payload: "/go" }] }
    },
    {
      id: "ask",
      type: "question",
      position: at(0, 200),
      data: {
        prompt: "Size?",
        variable: "size",
        validation: { kind: "choice", options: [{ value: "s", label: "Small" }, { value: "l", label: "Large" }] }
      }
    },
    {
      id: "route",
      type: "intent-router",
      position: at(0, 300),
      data: { intents: ["order_status", "refund"], slotVariables: { order_id: "the_order" } }
    },
    {
      id: "check",
      type: "condition",
      position: at(0, 400),
      data: { cases: [{ key: "vip", expression: "vars.total > 100" }] }
    },
    {
      id: "remember",
      type: "set-variable",
      position: at(0, 500),
      data: { variable: "ticket", value: { priority_level: 2 } }
    },
    { id: "think", type: "ai", position: at(0, 600), data: { prompt: "Summarise", resultVariable: "summary" } },
    { id: "human", type: "handoff", position: at(200, 600), data: { target: { kind: "default" } } },
    {
      id: "to_billing",
      type: "jump",
      position: at(0, 700),
      data: { target: { kind: "subflow", subflowId: "billing" } }
    },
    { id: "end", type: "end", position: at(0, 800), data: { outcome: "resolved" } },
    { id: "bill", type: "message", subflow: "billing", position: at(400, 0), data: { text: "Billing" } },
    { id: "bill_end", type: "end", subflow: "billing", position: at(400, 100), data: {} }
  ],
  edges: [
    { id: "e1", source: "start", target: "hello", kind: "next" },
    { id: "e2", source: "hello", target: "ask", kind: "next", label: "then" },
    { id: "e3", source: "ask", target: "route", kind: "option", option: "s" },
    { id: "e4", source: "ask", target: "route", kind: "option", option: "l" },
    { id: "e5", source: "ask", target: "end", kind: "fallback" },
    { id: "e6", source: "route", target: "check", kind: "intent", intent: "order_status" },
    { id: "e7", source: "route", target: "human", kind: "fallback" },
    { id: "e8", source: "check", target: "remember", kind: "case", case: "vip" },
    { id: "e9", source: "check", target: "to_billing", kind: "fallback" },
    { id: "e10", source: "remember", target: "think", kind: "next" },
    { id: "e11", source: "think", target: "end", kind: "next" },
    { id: "e12", source: "think", target: "human", kind: "error" },
    { id: "e13", source: "bill", target: "bill_end", kind: "next" }
  ],
  subflows: [{ id: "billing", name: "Billing", entryNodeId: "bill" }]
}

const importAs = (owner: TestAccount, format: "drawio" | "mermaid" | "parley", content: string, name: string) =>
  Effect.flatMap(clientOf(owner), (client) =>
    format === "drawio"
      ? client.imports.importDrawio({
        payload: Schema.decodeUnknownSync(DrawioImportRequest)({ xml: content, target: { kind: "new", name } })
      })
      : client.imports.importSource({
        payload: Schema.decodeUnknownSync(SingleSourceImport)({ format, content, target: { kind: "new", name } })
      }))

const roundTrip = (owner: TestAccount, agentId: AssistantId) =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const original = yield* client.flows.getFlow({ path: { agent_id: agentId } })
    for (const format of ["drawio", "mermaid", "parley"] as const) {
      const out = yield* client.flows.exportFlow({ path: { agent_id: agentId }, urlParams: { format } })
      expect(out).toMatchObject({ format, revision: original.revision })
      const back = yield* importAs(owner, format, out.content, `Back from ${format}`)
      const flow = yield* client.flows.getFlow({ path: { agent_id: back.agentId! } })
      expect(flowShape(flow), format).toEqual(flowShape(original))
    }
  })

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("export then import", (it) => {
  it.effect("a graph of every node type and route comes back the same from each format", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.assistants.create({ payload: AssistantCreate.make({ name: "Round trip" }) })
      yield* client.flows.replaceFlow({
        path: { agent_id: created.id },
        headers: {},
        payload: Schema.decodeUnknownSync(FlowReplace)(graph)
      })
      yield* roundTrip(owner, created.id)
    }))

  it.effect("an imported corpus diagram comes back the same from each format", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (const file of ["templates__other__decision_tree_1.xml", "blog__translation-task-flowchart.xml"]) {
        const imported = yield* importAs(owner, "drawio", readFileSync(corpus(`drawio/${file}`), "utf8"), file)
        expect(imported.status).toBe("succeeded")
        yield* roundTrip(owner, imported.agentId!)
      }
    }))
})
