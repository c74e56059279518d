import { describe, expect, it } from "@effect/vitest"
import {
  JUDGE_PREAMBLE,
  judgePrompt,
  readVerdict,
  rubricResult
} from "../../../../../src/domain/aiAgents/evals/RubricVerdict.js"

describe("the llm-rubric judge", () => {
  it("is asked for JSON with the rubric, the conversation and the reply", () => {
    const { system, user } = judgePrompt("Is polite", [{ role: "user", content: "Hi" }], "Hello!")
    expect(system.startsWith(JUDGE_PREAMBLE)).toBe(true)
    expect(system).toContain(`"score"`)
    expect(user).toBe("Rubric:\nIs polite\n\nConversation:\nuser: Hi\n\nThe agent's reply:\nHello!")
    const long = judgePrompt("r", [{ role: "user", content: "z".repeat(20_000) }], "ok").user
    expect(long.length).toBeLessThan(9000)
  })

  it("reads a verdict alone, fenced, or inside prose; a score outside 0..1 or none is unreadable", () => {
    expect(readVerdict(`{"score": 0.8, "reason": "Good"}`)).toEqual({ score: 0.8, reason: "Good" })
    expect(readVerdict("```json\n{\"score\": 1}\n```")).toEqual({ score: 1, reason: "" })
    expect(readVerdict(`Sure. {"score": "0.5", "reason": " ok "} Hope that helps`)).toEqual({
      score: 0.5,
      reason: "ok"
    })
    expect(readVerdict(`{"score": 7}`)).toBeUndefined()
    expect(readVerdict(`{"reason": "no score"}`)).toBeUndefined()
    expect(readVerdict("I would give it 8/10")).toBeUndefined()
    expect(readVerdict("{not json}")).toBeUndefined()
  })

  it("passes at the passing score or above; an unreadable answer fails and says so", () => {
    expect(rubricResult(2, 0.7, `{"score": 0.7, "reason": "Polite enough"}`)).toEqual({
      index: 2,
      kind: "llm-rubric",
      passed: true,
      score: 0.7,
      reason: "The judge scored 0.7 (at least 0.7): Polite enough"
    })
    expect(rubricResult(0, 0.7, `{"score": 0.4}`)).toMatchObject({
      passed: false,
      score: 0.4,
      reason: "The judge scored 0.4 (under 0.7): it gave no reason"
    })
    const unreadable = rubricResult(0, 0.7, "Looks fine to me")
    expect(unreadable).toMatchObject({ passed: false, score: 0 })
    expect(unreadable.reason).toContain("could not be read")
  })
})
