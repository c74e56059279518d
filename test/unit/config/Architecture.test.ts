/**
 * docs/ARCHITECTURE.md names every folder of the program (as `domain/deployments/`,
 * relative to src/), so a new folder cannot land without a word on what it holds.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const src = fileURLToPath(new URL("../../../src/", import.meta.url))
const architecture = Fs.readFileSync(new URL("../../../docs/ARCHITECTURE.md", import.meta.url), "utf8")

const folders = (dir: string): ReadonlyArray<string> =>
  Fs.readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = Path.join(dir, entry.name)
      return [Path.relative(src, path), ...folders(path)]
    })

describe("docs/ARCHITECTURE.md", () => {
  it("names every folder under src/", () => {
    const all = folders(src)
    expect(all.length).toBeGreaterThan(40)
    expect(all.filter((folder) => !architecture.includes(`${folder.split(Path.sep).join("/")}/`))).toEqual([])
  })
})
