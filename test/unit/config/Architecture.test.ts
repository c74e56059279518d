/**
 * docs/ARCHITECTURE.md names every folder of the program (as `domain/deployments/`,
 * relative to src/), so a new folder cannot land without a word on what it holds;
 * and the program wires its layers one way (ARCHITECTURE.md, "Layers"): no
 * assembly drops the dependencies a service declares.
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

const files = (dir: string): ReadonlyArray<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = Path.join(dir, entry.name)
    return entry.isDirectory() ? files(path) : entry.name.endsWith(".ts") ? [path] : []
  })

describe("docs/ARCHITECTURE.md", () => {
  it("names every folder under src/", () => {
    const all = folders(src)
    expect(all.length).toBeGreaterThan(40)
    expect(all.filter((folder) => !architecture.includes(`${folder.split(Path.sep).join("/")}/`))).toEqual([])
  })

  it("no assembly drops what a service declares: src/ never uses DefaultWithoutDependencies or Layer.fresh", () => {
    const all = files(src)
    expect(all.length).toBeGreaterThan(200)
    const offending = all.filter((file) =>
      /\.DefaultWithoutDependencies\b|Layer\.fresh\b/.test(Fs.readFileSync(file, "utf8"))
    )
    expect(offending.map((file) => Path.relative(src, file))).toEqual([])
  })
})
