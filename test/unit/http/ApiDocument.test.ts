import { describe, expect, it } from "@effect/vitest"
import { Api } from "../../../src/http/Api.js"
import { apiDocument, flattenAnyOf } from "../../../src/http/docs/ApiDocument.js"

describe("apiDocument", () => {
  it("flattens nested bare anyOf lists, and only those", () => {
    const a = { $ref: "#/a" }
    const b = { $ref: "#/b" }
    const c = { type: "string", anyOf: [a] } // not bare: kept as a member
    expect(flattenAnyOf({ anyOf: [{ anyOf: [{ anyOf: [a, b] }, c] }, b], title: "x" })).toEqual({
      anyOf: [a, b, { type: "string", anyOf: [a] }, b],
      title: "x"
    })
    expect(flattenAnyOf([1, "two", null, { anyOf: [{ anyOf: [a] }] }])).toEqual([1, "two", null, { anyOf: [a] }])
  })

  it("gives a node patch's twelve kinds as one list", () => {
    const document = apiDocument(Api) as any
    const schema = document.paths["/v1/agents/{agent_id}/flow/nodes/{node_id}"].patch.requestBody.content[
      "application/json"
    ].schema
    expect(schema.anyOf).toHaveLength(12)
    expect(schema.anyOf.every((member: { $ref?: string }) => typeof member.$ref === "string")).toBe(true)
  })
})
