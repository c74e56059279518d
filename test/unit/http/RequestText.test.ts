/**
 * How the edge reads URLs, forms and headers for text Parley cannot store
 * (pure: the middleware's own answers are in `InvalidText.test.ts`).
 */
import type { Headers } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { headerFlaw, pairsFlaw, percentDecoded, urlFlaw } from "../../../src/http/middleware/RequestText.js"
import type { Route } from "../../../src/http/RouteTable.js"

const routes: ReadonlyArray<Route> = [
  { method: "GET", path: "/v1/agents/:agent_id", group: "assistants", name: "get" },
  { method: "PATCH", path: "/v1/agents/:agent_id/flow/nodes/:node_id", group: "flows", name: "updateNode" },
  { method: "GET", path: "/v1/agents/:agent_id/flow", group: "flows", name: "getFlow" }
]

describe("request text", () => {
  it("decodes percent-escapes strictly: UTF-8 or nothing; a stray % stays", () => {
    expect(percentDecoded("caf%C3%A9", false)).toBe("café")
    expect(percentDecoded("%F0%9F%98%80", false)).toBe("😀")
    expect(percentDecoded("a+b", true)).toBe("a b")
    expect(percentDecoded("a+b", false)).toBe("a+b")
    expect(percentDecoded("100%", false)).toBe("100%")
    expect(percentDecoded("%zz%4", false)).toBe("%zz%4")
    expect(percentDecoded("%00", false)).toBe("\u0000")
    expect(percentDecoded("%ED%A0%80", false)).toBeUndefined()
    expect(percentDecoded("%C3x%A9", false)).toBeUndefined()
    expect(percentDecoded("%FF", false)).toBeUndefined()
  })

  it("names a flawed path parameter by the route's template, the method's own first", () => {
    expect(urlFlaw(routes, "GET", "/v1/agents/%00")).toEqual({
      field: "path.agent_id",
      flaw: "nul-character",
      inKey: false
    })
    expect(urlFlaw(routes, "PATCH", "/v1/agents/x/flow/nodes/%ED%A0%80")).toMatchObject({
      field: "path.node_id",
      flaw: "invalid-utf-8"
    })
    expect(urlFlaw(routes, "DELETE", "/v1/agents/%00/flow")).toMatchObject({ field: "path.agent_id" })
    expect(urlFlaw(routes, "GET", "/v1/elsewhere/%00")).toMatchObject({ field: "path" })
    expect(urlFlaw(routes, "GET", "/v1/agents/caf%C3%A9?q=%F0%9F%98%80&x")).toBeUndefined()
  })

  it("names a flawed query or form parameter, or its name, still escaped", () => {
    expect(urlFlaw(routes, "GET", "/v1/agents?limit=1&q=%00")).toMatchObject({ field: "query.q", inKey: false })
    expect(pairsFlaw("a%00=1", "body")).toMatchObject({ field: "body[\"a%00\"]", inKey: true })
    expect(pairsFlaw("Body=%C3", "body")).toMatchObject({ field: "body.Body", flaw: "invalid-utf-8" })
    expect(pairsFlaw("", "body")).toBeUndefined()
    expect(pairsFlaw("a=1&&b&c=", "body")).toBeUndefined()
  })

  it("checks every header, whatever its name", () => {
    const headers = (record: Record<string, string>) => record as unknown as Headers.Headers
    expect(headerFlaw(headers({ "user-agent": "Mozilla", "idempotency-key": "k\u0000" }))).toEqual({
      field: "header.idempotency-key",
      flaw: "nul-character",
      inKey: false
    })
    expect(headerFlaw(headers({ "x-custom": "\ud800" }))).toMatchObject({ field: "header.x-custom" })
    expect(headerFlaw(headers({ "user-agent": "caf\u00c3\u00a9" }))).toBeUndefined()
  })
})
