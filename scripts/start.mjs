/**
 * `npm start [-- <command>]`: Parley from the sources in a second or two.
 * esbuild bundles `src/main.ts` and the packages it uses into
 * `.build/main.js` when a source or the lockfile is newer than the bundle,
 * then runs it in this process: `parley serve` unless a command is given.
 * No type check here: that is `npm run typecheck`, and CI's. `npm run build`
 * is the full build (`dist/`, with the types of the `parley/api` export).
 */
import { pathToFileURL } from "node:url"
import { bundle, ensureBundle } from "./bundle.mjs"

await ensureBundle()

const args = process.argv.slice(2)
process.argv = [process.argv[0], bundle, ...(args.length === 0 ? ["serve"] : args)]
await import(pathToFileURL(bundle).href)
