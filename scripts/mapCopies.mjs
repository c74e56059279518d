/**
 * An esbuild plugin for the bundle (`bundle.mjs`): Effect copies a fiber's
 * services (its `Context`, a Map of about 120 on a Parley node) each time
 * one is added (every span, scope, transaction and provided service: about
 * 29 times a turn), and copies fiber refs the same way, with
 * `new Map(map)`. V8 builds such a copy through the Map iterator, one
 * `[key, value]` array and one result object per entry: on a node at its
 * peak these copies were 42% of all the memory allocated (`npm run
 * bench:allocation`; docs/OPERATIONS.md "Less garbage per turn"), and the
 * copies a turn still needed were a third of what the collector found alive
 * at each scavenge.
 *
 * The plugin rewrites those copies, and only those, in the four modules
 * where they are made. A service added (and a few merged in, and the
 * router's copy of the request's context) makes a layered map instead: the
 * large map shared, under a small layer of the new entries
 * (`layeredMap.mjs`). The other copies are made with `forEach`, which causes
 * about a fifth of the collections and takes three quarters of the time
 * (`bench/overload/mapCopy.mjs`). Either way the result reads as the same
 * map: the same entries in the same order.
 *
 * It counts what it rewrites and fails the build when a module does not hold
 * exactly the copies listed: an upgraded package that changed them is
 * reviewed here rather than left uncopied or half-rewritten.
 */
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"

/** Where the rewritten modules take their maps from (one module in the bundle, shared by all four). */
const layeredMapModule = fileURLToPath(new URL("./layeredMap.mjs", import.meta.url))

/** Effect's `Context.add`: a copy of the whole context and one `set`. */
const contextAdd = "  const map = new Map(self.unsafeMap);\n  map.set(tag.key, service);\n  return makeContext(map);"

/** Effect's `Context.merge`: a copy of the first context and a `set` for each service of the second. */
const contextMerge =
  "  const map = new Map(self.unsafeMap);\n  for (const [tag, s] of that.unsafeMap) {\n    map.set(tag, s);\n  }\n  return makeContext(map);"

/** Effect's `Equal` of two contexts: the same size, then every service of one looked up in the other. */
const contextEquals =
  "      if (this.unsafeMap.size === that.unsafeMap.size) {\n        for (const k of this.unsafeMap.keys()) {\n          if (!that.unsafeMap.has(k) || !Equal.equals(this.unsafeMap.get(k), that.unsafeMap.get(k))) {\n            return false;\n          }\n        }\n        return true;\n      }"

/**
 * Where the copies are: a module's path (its end) and the exact text of each
 * copy, how many times it is there, and what it becomes. A copy that is only
 * read becomes `parleyCopyMap` (a plain copy made with `forEach`); a service
 * added, a few merged in, and the router's copy that it changes, become a
 * layered map (`layeredMap.mjs`); comparing two contexts compares only their
 * layers when they share a base.
 */
export const copySites = [
  {
    module: "effect/dist/esm/internal/context.js",
    rewrites: [
      { from: contextAdd, count: 1, to: "  return makeContext(parleyAddService(self.unsafeMap, tag.key, service));" },
      {
        from: contextEquals,
        count: 1,
        to: "      return parleySameEntries(this.unsafeMap, that.unsafeMap, Equal.equals);"
      },
      { from: contextMerge, count: 1, to: "  return makeContext(parleyMerge(self.unsafeMap, that.unsafeMap));" },
      { from: "new Map(self.unsafeMap)", count: 1, to: "parleyCopyMap(self.unsafeMap)" }
    ]
  },
  {
    module: "effect/dist/esm/internal/fiberRefs.js",
    rewrites: [{ from: "new Map(self.locals)", count: 4, to: "parleyCopyMap(self.locals)" }]
  },
  {
    module: "effect/dist/esm/internal/differ/contextPatch.js",
    rewrites: [
      { from: "new Map(oldValue.unsafeMap)", count: 1, to: "parleyCopyMap(oldValue.unsafeMap)" },
      { from: "new Map(context.unsafeMap)", count: 1, to: "parleyCopyMap(context.unsafeMap)" }
    ]
  },
  {
    module: "@effect/platform/dist/esm/internal/httpRouter.js",
    rewrites: [{
      from: "new Map(fiber.getFiberRef(FiberRef.currentContext).unsafeMap)",
      count: 1,
      to: "parleyLayerOver(fiber.getFiberRef(FiberRef.currentContext).unsafeMap)"
    }]
  }
]

/**
 * `source` with each listed copy rewritten, importing the maps from
 * `layeredMap.mjs`; throws when a copy is not there exactly as many times as
 * listed.
 */
export const rewriteCopies = (module, source, rewrites) => {
  let rewritten = source
  for (const { count, from: copy, to } of rewrites) {
    const found = rewritten.split(copy).length - 1
    if (found !== count) {
      throw new Error(
        `${module}: expected ${count} of \`${copy}\`, found ${found}; the package changed: review scripts/mapCopies.mjs`
      )
    }
    rewritten = rewritten.split(copy).join(to)
  }
  return `import { parleyAddService, parleyCopyMap, parleyLayerOver, parleyMerge, parleySameEntries } from ${
    JSON.stringify(layeredMapModule)
  };\n${rewritten}`
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** The esbuild plugin; it also fails the build when a listed module was never loaded. */
export const cheapMapCopies = {
  name: "parley-cheap-map-copies",
  setup(build) {
    const loaded = new Set()
    for (const site of copySites) {
      build.onLoad({ filter: new RegExp(`node_modules/${escape(site.module)}$`) }, async (args) => {
        loaded.add(site.module)
        const source = await Fs.promises.readFile(args.path, "utf8")
        return { contents: rewriteCopies(site.module, source, site.rewrites), loader: "js" }
      })
    }
    build.onEnd((result) => {
      if (result.errors.length > 0) return
      const missing = copySites.filter((site) => !loaded.has(site.module)).map((site) => site.module)
      if (missing.length > 0) {
        return { errors: [{ text: `scripts/mapCopies.mjs: never loaded ${missing.join(", ")}; review the list` }] }
      }
    })
  }
}
