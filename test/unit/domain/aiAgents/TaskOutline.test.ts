import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { ProposedTask } from "../../../../src/domain/aiAgents/DerivedTasks.js"
import { clausesOf, outlineTasks, titleOf } from "../../../../src/domain/aiAgents/TaskOutline.js"

const validTasks = Schema.decodeUnknownEither(Schema.Array(ProposedTask))

describe("TaskOutline", () => {
  it("makes one task per sentence and clause, titled by the leading verb phrase", () => {
    const tasks = outlineTasks({
      description:
        "The agent should answer billing questions. It must look up the customer's invoices, and then refund " +
        "duplicate charges! Escalate angry customers to a human",
      maxTasks: 8
    })
    expect(tasks.map((task) => task.title)).toEqual([
      "Answer billing questions",
      "Look up the customer's invoices",
      "Refund duplicate charges",
      "Escalate angry customers to a human"
    ])
    expect(tasks[0]!.goal).toBe("Answer billing questions.")
    expect(tasks[0]!.successCriteria).toEqual(["Done when: answer billing questions."])
  })

  it("stops at maxTasks and reads the context after the description", () => {
    const tasks = outlineTasks({ description: "Greet visitors.", context: "Book demos. Collect emails.", maxTasks: 2 })
    expect(tasks.map((task) => task.title)).toEqual(["Greet visitors", "Book demos"])
  })

  it("never repeats a title and skips the agent's existing tasks, case-insensitively", () => {
    const tasks = outlineTasks({
      description: "Answer questions. answer questions. Book demos. Track orders.",
      maxTasks: 8,
      existingTitles: ["BOOK DEMOS"]
    })
    expect(tasks.map((task) => task.title)).toEqual(["Answer questions", "Track orders"])
  })

  it("ignores punctuation-only pieces, control characters and lone surrogates", () => {
    expect(clausesOf("... !!! ; \n -- ")).toEqual([])
    const tasks = outlineTasks({ description: "Sort\u0000 tickets\ud800. ...", maxTasks: 5 })
    expect(tasks.map((task) => task.title)).toEqual(["Sort tickets"])
  })

  it("keeps titles short: six words at most, 120 characters at most", () => {
    expect(titleOf("you should summarise every long support thread for the on-call engineer")).toBe(
      "Summarise every long support thread for"
    )
    expect(Array.from(titleOf("x".repeat(500))).length).toBeLessThanOrEqual(120)
  })

  it("property: valid tasks, unique titles, at most maxTasks, a criterion each, deterministic", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 600 }),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }),
        (description, context, maxTasks, existingTitles) => {
          const input = { description, context, maxTasks, existingTitles }
          const tasks = outlineTasks(input)
          expect(tasks.length).toBeLessThanOrEqual(maxTasks)
          const titles = tasks.map((task) => task.title.toLocaleLowerCase("en"))
          expect(new Set(titles).size).toBe(titles.length)
          const existing = new Set(existingTitles.map((title) => title.trim().toLocaleLowerCase("en")))
          expect(titles.filter((title) => existing.has(title))).toEqual([])
          expect(tasks.every((task) => task.successCriteria.length >= 1)).toBe(true)
          expect(validTasks(tasks)._tag).toBe("Right")
          expect(outlineTasks(input)).toEqual(tasks)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("property: a description of words always yields at least one task", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("Book", "demos", "answer", "calls", "route", "leads"), {
          minLength: 1,
          maxLength: 12
        }),
        (words) => {
          expect(outlineTasks({ description: words.join(" "), maxTasks: 3 }).length).toBeGreaterThanOrEqual(1)
        }
      )
    )
  })
})
