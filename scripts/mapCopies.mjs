/**
 * An esbuild plugin for the bundle (`bundle.mjs`): Effect copies a fiber's
 * services (its `Context`, a Map of about 120 on a Parley node) each time
 * one is added (every span, scope, transaction and provided service: about
 * 29 times a turn), and copies fiber refs the same way, with
 * `new Map(map)`. V8 builds such a copy through the Map iterator, one
 * `[key, value]` array and one result object per entry: on a node at its
 * peak these copies were 42% of all the memory allocated (`npm run
 * bench:allocation`; docs/OPERATIONS.md "Less garbage per turn"). A copy
 * made with `forEach` causes about a fifth of the collections and takes
 * three quarters of the time (`bench/overload/mapCopy.mjs`). The result is the same map: the same
 * entries in the same order.
 *
 * The plugin rewrites those copies, and only those, in the four modules
 * where they are made. It counts what it rewrites and fails the build when a
 * module does not hold exactly the copies listed: an upgraded package that
 * changed them is reviewed here rather than left uncopied or half-rewritten.
 */
import * as Fs from "node:fs"

/** The helper each rewritten module gets (a declaration, so it is hoisted). */
const helper =
  "\nfunction parleyCopyMap(source) { const copy = new Map(); source.forEach((value, key) => { copy.set(key, value) }); return copy }\n"

/** Where the copies are: a module's path (its end) and the exact copies it holds, with how many of each. */
export const copySites = [
  { module: "effect/dist/esm/internal/context.js", copies: { "new Map(self.unsafeMap)": 3 } },
  { module: "effect/dist/esm/internal/fiberRefs.js", copies: { "new Map(self.locals)": 4 } },
  {
    module: "effect/dist/esm/internal/differ/contextPatch.js",
    copies: { "new Map(oldValue.unsafeMap)": 1, "new Map(context.unsafeMap)": 1 }
  },
  {
    module: "@effect/platform/dist/esm/internal/httpRouter.js",
    copies: { "new Map(fiber.getFiberRef(FiberRef.currentContext).unsafeMap)": 1 }
  }
]

/**
 * `source` with each listed copy made by `parleyCopyMap`; throws when a copy
 * is not there exactly as many times as listed.
 */
export const rewriteCopies = (module, source, copies) => {
  let rewritten = source
  for (const [copy, expected] of Object.entries(copies)) {
    const found = rewritten.split(copy).length - 1
    if (found !== expected) {
      throw new Error(
        `${module}: expected ${expected} of \`${copy}\`, found ${found}; the package changed: review scripts/mapCopies.mjs`
      )
    }
    const argument = copy.slice("new Map(".length, -1)
    rewritten = rewritten.split(copy).join(`parleyCopyMap(${argument})`)
  }
  return rewritten + helper
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
        return { contents: rewriteCopies(site.module, source, site.copies), loader: "js" }
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
