/**
 * The contract is importable on its own: everything `src/http/Api.ts`
 * reaches is domain code, contract groups and middleware declarations, and
 * the only packages are effect, @effect/platform, @effect/sql (for Model) and
 * re2js: a slot's pattern is checked by the engine that runs it (linear time,
 * RE2 syntax), so a typed client refuses a pattern the server would, and the
 * package is pure JavaScript with no dependencies of its own.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const src = fileURLToPath(new URL("../../../src/", import.meta.url))

const importsOf = (file: string): ReadonlyArray<string> =>
  [...Fs.readFileSync(file, "utf8").matchAll(/(?:^|\n)\s*(?:import|export)[^"']*?from\s+["']([^"']+)["']/g)].map((m) =>
    m[1]!
  )

const reach = (entry: string) => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) visit(Path.resolve(Path.dirname(file), specifier.replace(/\.js$/, ".ts")))
      else {packages.add(
          specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!
        )}
    }
  }
  visit(entry)
  return { files: [...files].map((file) => Path.relative(src, file)), packages: [...packages].sort() }
}

describe("the contract's imports", () => {
  it("reach only domain code, contract groups and middleware tags", () => {
    const { files, packages } = reach(Path.join(src, "http/Api.ts"))
    const allowed = (file: string) =>
      file.startsWith("domain/") ||
      (file.startsWith("http/") &&
        !/Http\.ts$|Live\.ts$|NotBuilt\.ts$|ApiLive\.ts$|Buffered|RequestBody|ErrorResponses|Timeout|Observability|StartingServer|RouteTable|JsonError|NotImplementedHttp/
          .test(file))
    expect(files.filter((file) => !allowed(file))).toEqual([])
    expect(files.length).toBeGreaterThan(100)
    expect(packages).toEqual(["@effect/platform", "@effect/sql", "effect", "re2js"])
  })
})
