/**
 * One repair makes every diagram of the corpus (draw.io files and Mermaid
 * flowcharts, imported as a user would) free of errors, keeps every edge
 * (branches become choices rather than being deleted), never leaves more
 * findings than the import had, and a second repair changes nothing. Each
 * file's before and after is printed.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { analyzeFlow, isDeployable } from "../../../../../src/domain/assistants/analysis/AnalyzeFlow.js"
import { flowStructureProblems } from "../../../../../src/domain/assistants/FlowStructure.js"
import { repairFlow } from "../../../../../src/domain/assistants/repair/RepairFlow.js"
import { importDrawio } from "../../../../../src/domain/imports/Drawio.js"
import type { Conversion } from "../../../../../src/domain/imports/ImportDraft.js"
import { importMermaid } from "../../../../../src/domain/imports/Mermaid.js"
import { corpus } from "../../../../support/Fixtures.js"

const imported = (): ReadonlyArray<readonly [string, Conversion]> => [
  ...readdirSync(corpus("drawio")).map((file) =>
    [file, importDrawio(readFileSync(corpus(`drawio/${file}`), "utf8"))] as const
  ),
  ...readdirSync(corpus("sources/mermaid")).map((file) =>
    [file, importMermaid(readFileSync(corpus(`sources/mermaid/${file}`), "utf8"), file)] as const
  )
]

const codes = (findings: ReadonlyArray<{ readonly code: string }>) => {
  const counts: Record<string, number> = {}
  for (const finding of findings) counts[finding.code] = (counts[finding.code] ?? 0) + 1
  return JSON.stringify(counts)
}

describe("repairing the corpus", () => {
  it("one repair makes each imported diagram deployable, keeping every edge", () => {
    const files = imported()
    expect(files.length).toBeGreaterThanOrEqual(15)
    let repaired = 0
    for (const [file, conversion] of files) {
      if (conversion._tag !== "Mapped") throw new Error(`${file} did not import`)
      const intents = conversion.intents.map((intent) => ({
        name: intent.name,
        utterances: intent.utterances,
        slots: []
      }))
      const before = analyzeFlow(conversion.flow, intents)
      const result = repairFlow(conversion.flow, intents)
      console.log(`${file}: ${codes(before)} -> ${codes(result.remaining)}`)
      expect(flowStructureProblems(result.graph)).toEqual([])
      expect({ file, deployable: isDeployable(result.remaining) }).toEqual({ file, deployable: true })
      expect({ file, removed: result.diff.removedEdges }).toEqual({ file, removed: [] })
      expect(result.remaining.length).toBeLessThanOrEqual(before.length)
      expect({ file, again: repairFlow(result.graph, intents).changed }).toEqual({ file, again: false })
      if (!isDeployable(before)) repaired++
    }
    expect(repaired).toBeGreaterThanOrEqual(12)
  })
})
