import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { environmentVariables } from "../../../src/config/Settings.js"

const readme = Fs.readFileSync(new URL("../../../README.md", import.meta.url), "utf8")

describe("the README", () => {
  it("documents every setting Parley reads in its configuration table, and no other", () => {
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1])
    expect([...documented].sort()).toEqual([...environmentVariables].sort())
  })

  it("gives the run and the test commands", () => {
    expect(readme).toContain("npm ci && npm start")
    expect(readme).toContain("npm ci && npm test")
  })
})
