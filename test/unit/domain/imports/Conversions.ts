/** Helpers for converter tests: read a conversion's graph compactly and check it held no defect. */
import { expect } from "@effect/vitest"
import type { Conversion, Mapped, Unreadable } from "../../../../src/domain/imports/ImportDraft.js"

/** The import must be usable. */
export const mapped = (conversion: Conversion): Mapped => {
  expect(conversion._tag, JSON.stringify(conversion).slice(0, 500)).toBe("Mapped")
  return conversion as Mapped
}

/** The import must have read nothing usable, and say why. */
export const refused = (conversion: Conversion): Unreadable => {
  expect(conversion._tag).toBe("Unreadable")
  const problems = (conversion as Unreadable).problems
  expect(problems.length).toBeGreaterThan(0)
  for (const problem of problems) {
    expect(problem.message.length).toBeGreaterThan(0)
    // A converter's own defect, caught by `ImportSource`'s guard, is never an answer.
    expect(problem.message).not.toMatch(/could not be read: (Type|Range|Reference)Error/)
    for (const n of [problem.location?.line, problem.location?.column]) {
      if (n !== undefined) expect(Number.isInteger(n) && n > 0).toBe(true)
    }
  }
  return conversion as Unreadable
}

/** Nodes as `id type label`. */
export const nodesOf = (result: Mapped) =>
  result.flow.nodes.map((node) => `${node.id} ${node.type}${node.label === undefined ? "" : ` ${node.label}`}`)

/** Edges as `source>target kind[:intent|case|option][ "label"]`. */
export const edgesOf = (result: Mapped) =>
  result.flow.edges.map((edge) => {
    const route = edge.kind === "intent"
      ? `:${edge.intent}`
      : edge.kind === "case"
      ? `:${edge.case}`
      : edge.kind === "option"
      ? `:${edge.option}`
      : ""
    return `${edge.source}>${edge.target} ${edge.kind}${route}${edge.label === undefined ? "" : ` "${edge.label}"`}`
  })

/** The data of one node. */
export const dataOf = (result: Mapped, id: string): any => result.flow.nodes.find((node) => node.id === id)?.data

/** Warning codes of a report. */
export const codesOf = (result: Mapped) => result.report.warnings.map((warning) => warning.code)

/** Every edge leaves its node by a route that node's kind can take (what the runtime follows). */
export const routesFollowable = (result: Mapped) => {
  const types = new Map(result.flow.nodes.map((node) => [node.id, node.type]))
  const allowed: Record<string, ReadonlyArray<string>> = {
    start: ["next"],
    message: ["next"],
    question: ["answered", "option", "fallback"],
    "intent-router": ["intent", "fallback"],
    condition: ["case", "fallback"]
  }
  for (const edge of result.flow.edges) {
    const kinds = allowed[types.get(edge.source)!]
    if (kinds !== undefined) {
      expect(kinds, `${edge.source} (${types.get(edge.source)}) -> ${edge.kind}`).toContain(edge.kind)
    }
  }
}
