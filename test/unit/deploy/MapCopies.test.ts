/**
 * The bundle copies Effect's contexts and fiber refs with `forEach`
 * (scripts/mapCopies.mjs): every listed copy is in the installed packages
 * exactly as listed, the rewritten copy is the same map, a package that
 * changed fails loudly, and the bundle the nodes run holds no copy of a
 * context made the old way.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { bundle } from "../../../scripts/bundle.mjs"
import { copySites, rewriteCopies } from "../../../scripts/mapCopies.mjs"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** Runs a rewritten module body that copies `source` into `copy`, and returns the copy. */
const runCopy = (rewritten: string, source: Map<unknown, unknown>): Map<unknown, unknown> =>
  new Function("self", `${rewritten}\nreturn copy`)({ unsafeMap: source })

describe("map copies", () => {
  it("finds every listed copy in the installed packages and leaves none of them", () => {
    for (const site of copySites) {
      const source = Fs.readFileSync(Path.join(root, "node_modules", site.module), "utf8")
      const rewritten = rewriteCopies(site.module, source, site.copies)
      for (const [copy, count] of Object.entries(site.copies)) {
        expect(source.split(copy).length - 1).toBe(count)
        expect(rewritten).not.toContain(copy)
      }
      const calls = Object.values(site.copies).reduce((sum, count) => sum + count, 0)
      expect(rewritten.split("parleyCopyMap(").length - 1).toBe(calls + 1)
    }
  })

  it("makes the same map: the same entries in the same order, in a new map", () => {
    const source = new Map<unknown, unknown>([["b", 1], ["a", { two: 2 }], [3, "three"]])
    source.delete("b")
    source.set("b", 4)
    const copy = runCopy(
      rewriteCopies("test", "const copy = new Map(self.unsafeMap)", { "new Map(self.unsafeMap)": 1 }),
      source
    )
    expect(copy).not.toBe(source)
    expect([...copy]).toEqual([...source])
    copy.set("c", 5)
    expect(source.has("c")).toBe(false)
  })

  it("fails when a package holds more or fewer copies than listed", () => {
    const copies = { "new Map(self.unsafeMap)": 1 }
    expect(() => rewriteCopies("changed.js", "const copy = new Map(self.map)", copies)).toThrow(
      /changed\.js: expected 1 of `new Map\(self\.unsafeMap\)`, found 0/
    )
    expect(() => rewriteCopies("changed.js", "new Map(self.unsafeMap); new Map(self.unsafeMap)", copies)).toThrow(
      /found 2/
    )
  })

  it("leaves no context copied the old way in the bundle the nodes run", () => {
    const built = Fs.readFileSync(bundle, "utf8")
    expect(built).not.toMatch(/new Map\(self\d*\.unsafeMap\)/)
    expect(built).not.toMatch(/new Map\(self\d*\.locals\)/)
    expect(built.match(/parleyCopyMap\d*\(self\d*\.unsafeMap\)/g)?.length).toBe(3)
  })
})
