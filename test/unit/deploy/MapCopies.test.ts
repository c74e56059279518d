/**
 * The bundle's Effect keeps a fiber's services in layered maps and copies
 * the rest with `forEach` (scripts/mapCopies.mjs, scripts/layeredMap.mjs):
 * every listed copy is in the installed packages exactly as listed, a
 * package that changed fails loudly, a layered map behaves as the copy it
 * stands for under any sequence of changes, Effect rewritten this way
 * answers as Effect does, and the bundle the nodes run holds no context
 * copied the old way.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Equal } from "effect"
import * as Esbuild from "esbuild"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { bundle } from "../../../scripts/bundle.mjs"
import {
  LayeredMap,
  MIN_LAYERED_SIZE,
  parleyAddService,
  parleyCopyMap,
  parleyLayerOver,
  parleyMerge,
  parleySameEntries
} from "../../../scripts/layeredMap.mjs"
import { cheapMapCopies, copySites, rewriteCopies } from "../../../scripts/mapCopies.mjs"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** A seeded generator (mulberry32): the same sequence of changes on every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Everything a reader of a Map can see of it, each way of reading it. */
const seen = (map: Map<unknown, unknown>, keys: ReadonlyArray<unknown>) => {
  const each: Array<[unknown, unknown]> = []
  map.forEach((value, key) => each.push([key, value]))
  return {
    size: map.size,
    iterated: [...map],
    entries: [...map.entries()],
    keys: [...map.keys()],
    values: [...map.values()],
    each,
    copied: [...new Map(map)],
    lookups: keys.map((key) => [map.has(key), map.get(key)])
  }
}

describe("layered maps", () => {
  it("behave as the copy they stand for, under any sequence of adds, merges, sets, deletes and clears", () => {
    const random = seeded(20261129)
    const pick = (n: number) => Math.floor(random() * n)
    const keys = Array.from({ length: 72 }, (_, i) => `k${i}`)
    let layeredSeen = 0
    for (let trial = 0; trial < 120; trial++) {
      let plain = new Map<unknown, unknown>()
      for (let i = pick(50); i > 0; i--) plain.set(keys[pick(60)], i)
      let layered: Map<unknown, unknown> = parleyCopyMap(plain)
      for (let step = 0; step < 60; step++) {
        const old = layered
        const next = new Map(plain)
        const op = pick(10)
        const key = keys[pick(keys.length)]
        if (op < 5) {
          next.set(key, step)
          layered = parleyAddService(layered, key, step)
        } else if (op < 7) {
          const other = new Map<unknown, unknown>()
          for (let i = pick(pick(3) === 0 ? 40 : 6); i > 0; i--) other.set(keys[pick(keys.length)], -i)
          const merged = pick(2) === 0 ? other : parleyAddService(parleyCopyMap(other), "k1", "merged")
          for (const [k, v] of merged) next.set(k, v)
          layered = parleyMerge(layered, merged)
        } else if (op === 7) {
          const changed = parleyLayerOver(layered)
          expect(changed.delete(key)).toBe(next.delete(key))
          layered = changed
        } else if (op === 8) {
          const changed = parleyLayerOver(layered)
          changed.set(key, undefined)
          next.set(key, undefined)
          layered = changed
        } else if (pick(10) === 0) {
          const changed = parleyLayerOver(layered)
          changed.clear()
          next.clear()
          layered = changed
        }
        // The new map reads as the plain copy does, and the map it was made from is unchanged.
        expect(seen(layered, keys)).toEqual(seen(next, keys))
        expect(seen(old, keys)).toEqual(seen(plain, keys))
        if (layered instanceof LayeredMap) layeredSeen++
        plain = next
      }
    }
    expect(layeredSeen).toBeGreaterThan(1000)
  })

  it("layers large maps only, and keeps adding to a layer small", () => {
    const small = new Map<unknown, unknown>(Array.from({ length: MIN_LAYERED_SIZE - 1 }, (_, i) => [i, i]))
    const large = new Map<unknown, unknown>(Array.from({ length: 120 }, (_, i) => [i, i]))
    expect(parleyAddService(small, "x", 1)).not.toBeInstanceOf(LayeredMap)
    let layered = parleyAddService(large, "x", 1)
    expect(layered).toBeInstanceOf(LayeredMap)
    for (let i = 0; i < 100; i++) layered = parleyAddService(layered, `y${i}`, i)
    expect(layered.size).toBe(221)
    expect((layered as LayeredMap<unknown, unknown>).layerSize).toBeLessThanOrEqual(25)
    expect(large.size).toBe(120)
  })

  it("compares two maps by their entries, by the layers alone when they share a base", () => {
    const random = seeded(7)
    const pick = (n: number) => Math.floor(random() * n)
    const same = (a: unknown, b: unknown) => a === b
    for (let trial = 0; trial < 2000; trial++) {
      const base = new Map<unknown, unknown>()
      for (let i = 20 + pick(5); i > 0; i--) base.set(`k${pick(30)}`, pick(3))
      let a = parleyLayerOver(base)
      let b = parleyLayerOver(base)
      for (let i = pick(5); i > 0; i--) a = parleyAddService(a, `k${pick(34)}`, pick(3))
      for (let i = pick(5); i > 0; i--) b = parleyAddService(b, `k${pick(34)}`, pick(3))
      if (pick(4) === 0) b = parleyCopyMap(b)
      const plainA = new Map(a)
      const plainB = new Map(b)
      const expected = plainA.size === plainB.size &&
        [...plainA].every(([key, value]) => plainB.has(key) && plainB.get(key) === value)
      expect(parleySameEntries(a, b, same)).toBe(expected)
    }
  })
})

describe("map copies", () => {
  it("finds every listed copy in the installed packages and leaves none of them", () => {
    for (const site of copySites) {
      const source = Fs.readFileSync(Path.join(root, "node_modules", site.module), "utf8")
      const rewritten = rewriteCopies(site.module, source, site.rewrites)
      // Each rewrite applies to the text the ones before it left.
      let text = source
      for (const rewrite of site.rewrites) {
        expect(text.split(rewrite.from).length - 1).toBe(rewrite.count)
        text = text.split(rewrite.from).join(rewrite.to)
        expect(rewritten).not.toContain(rewrite.from)
      }
      expect(rewritten.endsWith(text)).toBe(true)
      expect(rewritten).not.toMatch(/new Map\((self|oldValue|context|fiber)\b[^)]*\.(unsafeMap|locals)\)/)
    }
  })

  it("fails when a package holds more or fewer copies than listed", () => {
    const rewrites = [{ from: "new Map(self.unsafeMap)", count: 1, to: "parleyCopyMap(self.unsafeMap)" }]
    expect(() => rewriteCopies("changed.js", "const copy = new Map(self.map)", rewrites)).toThrow(
      /changed\.js: expected 1 of `new Map\(self\.unsafeMap\)`, found 0/
    )
    expect(() => rewriteCopies("changed.js", "new Map(self.unsafeMap); new Map(self.unsafeMap)", rewrites)).toThrow(
      /found 2/
    )
  })

  it("gives Effect, rewritten, the same contexts and answers as Effect", async () => {
    // Effect and the router bundled with the plugin, as the nodes' bundle is.
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-map-copies-"))
    const outfile = Path.join(dir, "effect.mjs")
    await Esbuild.build({
      stdin: {
        contents: [
          "export * as Context from 'effect/Context'",
          "export * as Effect from 'effect/Effect'",
          "export * as Equal from 'effect/Equal'",
          "export * as HttpRouter from '@effect/platform/HttpRouter'"
        ].join("\n"),
        resolveDir: root
      },
      bundle: true,
      format: "esm",
      platform: "node",
      outfile,
      plugins: [cheapMapCopies],
      logLevel: "silent"
    })
    const rewritten = (await import(pathToFileURL(outfile).href)) as {
      Context: typeof Context
      Effect: typeof Effect
      Equal: typeof Equal
    }
    Fs.rmSync(dir, { recursive: true, force: true })

    /** The same program against either Effect: 40 services, then nested adds, merges, omits, spans and lookups. */
    const program = (E: { Context: typeof Context; Effect: typeof Effect; Equal: typeof Equal }) => {
      const tags = Array.from({ length: 48 }, (_, i) => E.Context.GenericTag<string>(`map-copies/${i}`))
      let context = E.Context.empty() as Context.Context<unknown>
      for (let i = 0; i < 40; i++) context = E.Context.add(context, tags[i]!, `s${i}`)
      const added = [1, 41, 7, 42, 41].reduce((c, i) => E.Context.add(c, tags[i]!, `again${i}`), context)
      const other = E.Context.add(E.Context.add(context, tags[7]!, "again7"), tags[1]!, "again1")
      const merged = E.Context.merge(added, E.Context.make(tags[43]!, "m43").pipe(E.Context.add(tags[2]!, "m2")))
      const mergedLarge = E.Context.merge(added, context)
      const omitted = E.Context.omit(tags[7]!, tags[41]!)(merged)
      const picked = E.Context.pick(tags[1]!, tags[42]!, tags[43]!)(merged)
      const names = (c: { readonly unsafeMap: Map<string, unknown> }) =>
        [...c.unsafeMap].map(([key, value]) => `${key}=${String(value)}`)
      const read = E.Effect.gen(function*() {
        const outer = yield* tags[3]!
        const inner = yield* E.Effect.gen(function*() {
          const a = yield* tags[44]!
          const b = yield* E.Effect.withSpan(tags[45]!, "a span")
          const c = yield* E.Effect.serviceOption(tags[46]!)
          return [a, b, c._tag]
        }).pipe(
          E.Effect.provideService(tags[44]!, "p44"),
          E.Effect.provideService(tags[45]!, "p45"),
          E.Effect.provideService(tags[3]!, "shadowed")
        )
        const after = yield* tags[3]!
        const size = (yield* E.Effect.context<never>()).unsafeMap.size
        return [outer, ...inner, after, size]
      })
      return {
        added: names(added),
        merged: names(merged),
        mergedLarge: names(mergedLarge),
        omitted: names(omitted),
        picked: names(picked),
        equalSame: E.Equal.equals(
          added,
          [1, 41, 7, 42, 41].reduce((c, i) => E.Context.add(c, tags[i]!, `again${i}`), context)
        ),
        equalOther: E.Equal.equals(added, other),
        equalItself: E.Equal.equals(context, E.Context.add(context, tags[5]!, "s5")),
        read: E.Effect.runSync(E.Effect.provide(read, context as Context.Context<string>))
      }
    }
    const expected = program({ Context, Effect, Equal })
    expect(program(rewritten)).toEqual(expected)
    expect(expected.equalSame).toBe(true)
    expect(expected.equalOther).toBe(false)
    expect(expected.equalItself).toBe(true)
    expect(expected.read).toEqual(["s3", "p44", "p45", "None", "s3", 40])
  })

  it("leaves no context copied the old way in the bundle the nodes run", () => {
    const built = Fs.readFileSync(bundle, "utf8")
    expect(built).not.toMatch(/new Map\(self\d*\.unsafeMap\)/)
    expect(built).not.toMatch(/new Map\(self\d*\.locals\)/)
    expect(built).toMatch(/return makeContext\d*\(parleyAddService\(self\d*\.unsafeMap, tag\d*\.key, service\d*\)\)/)
    expect(built).toMatch(/return parleySameEntries\(this\.unsafeMap, that\.unsafeMap, (Equal\d*\.)?equals\d*\)/)
  })
})
