import { describe, expect, it } from "@effect/vitest"
import { proposalPrompt, readProposals } from "../../../../src/domain/aiAgents/TaskProposals.js"

const task = (title: string, more: Record<string, unknown> = {}) => ({
  title,
  goal: `Achieve ${title}`,
  successCriteria: [`${title} is done`],
  ...more
})

describe("task proposals from a model", () => {
  it("reads the first JSON object of the answer, in a code fence or prose", () => {
    const answer = "Here you go:\n```json\n" + JSON.stringify({ tasks: [task("Greet"), task("Find the order")] }) +
      "\n```\nAnything else?"
    expect(readProposals(answer, 8, []).map((t) => t.title)).toEqual(["Greet", "Find the order"])
  })

  it("skips invalid tasks, repeats and the agent's own titles, case-insensitively, and keeps at most maxTasks", () => {
    const answer = JSON.stringify({
      tasks: [
        task("Greet"),
        task("greet"),
        task(""),
        { title: "No criteria", goal: "x", successCriteria: [] },
        "not a task",
        task("Refund"),
        task("Escalate"),
        task("Close")
      ]
    })
    expect(readProposals(answer, 2, ["REFUND"]).map((t) => t.title)).toEqual(["Greet", "Escalate"])
  })

  it("an answer without a tasks array, or no JSON at all, has no tasks", () => {
    expect(readProposals("I cannot help with that.", 5, [])).toEqual([])
    expect(readProposals("{\"items\": []}", 5, [])).toEqual([])
    expect(readProposals("{ broken", 5, [])).toEqual([])
    // Braces inside strings do not end the object early.
    expect(readProposals(JSON.stringify({ tasks: [task("Say {hi}")] }), 5, []).map((t) => t.title)).toEqual([
      "Say {hi}"
    ])
  })

  it("a hostile answer (deep nesting, a huge string) ends in bounded time with no tasks or the valid ones", () => {
    const deep = "{\"tasks\":" + "[".repeat(5000) + "]".repeat(5000) + "}"
    expect(readProposals(deep, 5, [])).toEqual([])
    // Many braces: only the first few are tried as the object's start.
    expect(readProposals("{".repeat(200_000), 5, [])).toEqual([])
    const huge = JSON.stringify({ tasks: [task("x".repeat(10_000)), task("Fine")] })
    expect(readProposals(huge, 5, []).map((t) => t.title)).toEqual(["Fine"])
  })

  it("the prompt names the limit, the context, the instructions and the titles to avoid", () => {
    const { system, user } = proposalPrompt({
      description: "Help with orders",
      context: "Shop for bikes",
      maxTasks: 4,
      instructions: "Be brief.",
      existingTitles: ["Greet"]
    })
    expect(system).toContain("at most 4 tasks")
    expect(user).toContain("Help with orders")
    expect(user).toContain("Shop for bikes")
    expect(user).toContain("Be brief.")
    expect(user).toContain("- Greet")
  })
})
