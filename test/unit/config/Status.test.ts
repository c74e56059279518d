import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { withCurrentSection } from "../../../scripts/routeStatus.js"

describe("docs/STATUS.md", () => {
  it("lists exactly the routes that answer 501 (npm run docs:status rewrites it)", () => {
    const document = Fs.readFileSync(new URL("../../../docs/STATUS.md", import.meta.url), "utf8")
    expect(document).toBe(withCurrentSection(document))
  })
})
