import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { readAnswer } from "../../../../../src/domain/workflows/engine/InputAnswer.js"
import { validateRunInput } from "../../../../../src/domain/workflows/engine/RunInput.js"
import type { TriggerNode } from "../../../../../src/domain/workflows/WorkflowNode.js"
import { graph, trigger } from "./WorkflowFixtures.js"

describe("input answers", () => {
  it("read by expect, or say why not", () => {
    expect(readAnswer("number", "-3")).toEqual(Either.right(-3))
    expect(readAnswer("number", "1,000")).toEqual(Either.right(1000))
    expect(readAnswer("number", "1.000")).toEqual(Either.right(1))
    expect(readAnswer("number", "twelve")).toEqual(Either.left("expected a number"))
    expect(readAnswer("number", true)).toEqual(Either.left("expected a number"))
    expect(readAnswer("boolean", "N")).toEqual(Either.right(false))
    expect(readAnswer("boolean", 1)).toEqual(Either.right(true))
    expect(readAnswer("boolean", "maybe")).toEqual(Either.left("expected yes or no"))
    expect(readAnswer("json", "null")).toEqual(Either.right(null))
    expect(readAnswer("json", { a: 1 })).toEqual(Either.right({ a: 1 }))
    expect(readAnswer("json", "{")).toEqual(Either.left("expected a JSON value"))
    expect(readAnswer("text", 42)).toEqual(Either.right("42"))
    expect(readAnswer("text", { a: 1 })).toEqual(Either.left("expected a text message"))
    expect(readAnswer("text", "   ")).toEqual(Either.left("the message is empty"))
  })
})

describe("run input", () => {
  const start = (inputs: ReadonlyArray<object>) => graph([trigger(inputs)], []).nodes[0] as typeof TriggerNode.Type

  it("keeps undeclared members as members, even one named __proto__", () => {
    const checked = validateRunInput(
      start([{ name: "a", type: "object", required: false, default: { d: 1 } }]),
      JSON.parse("{\"__proto__\": {\"polluted\": true}, \"a\": null}")
    )
    expect(Either.isRight(checked)).toBe(true)
    const value = Either.getOrThrow(checked) as Record<string, unknown>
    expect(Object.hasOwn(value, "__proto__")).toBe(true)
    expect(value.a).toEqual({ d: 1 })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it("leaves an optional input without default absent", () => {
    const checked = validateRunInput(start([{ name: "n", type: "number", required: false }]), { n: null })
    expect(checked).toEqual(Either.right({}))
  })
})
