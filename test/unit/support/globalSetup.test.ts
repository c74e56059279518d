/**
 * The test set-up shares one PostgreSQL server with other checkouts: it drops
 * only templates that no run has used for a day, and leftover builds.
 */
import { describe, expect, it } from "@effect/vitest"
import { lastUsed, staleTemplates } from "../../support/globalSetup.js"

const day = 24 * 60 * 60 * 1000
const now = Date.parse("2026-11-26T12:00:00Z")
const usedAt = (ms: number) => `parley test template, last used ${new Date(ms).toISOString()}`

describe("test templates", () => {
  it("reads when a template was last used from its comment", () => {
    expect(lastUsed(usedAt(now))).toBe(now)
    expect(lastUsed(null)).toBeUndefined()
    expect(lastUsed("something else")).toBeUndefined()
    expect(lastUsed("parley test template, last used yesterday")).toBeUndefined()
  })

  it("keeps this run's template and other checkouts' recent ones, drops stale ones and leftover builds", () => {
    const stale = staleTemplates(
      [
        { name: "parley_template_current", comment: usedAt(now - 2 * day) },
        { name: "parley_template_other", comment: usedAt(now - 60_000) },
        { name: "parley_template_old", comment: usedAt(now - day - 1) },
        { name: "parley_template_unmarked", comment: null },
        { name: "parley_template_other_building", comment: null }
      ],
      "parley_template_current",
      now
    )
    expect(stale).toEqual(["parley_template_old", "parley_template_unmarked", "parley_template_other_building"])
  })
})
