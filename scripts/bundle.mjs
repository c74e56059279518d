/**
 * The esbuild bundle of `src/main.ts` that `npm start` runs (and the tests
 * spawn as `parley`): `.build/main.js`, rebuilt when a source or the
 * lockfile is newer than it.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { cheapMapCopies } from "./mapCopies.mjs"
import { socketWriteAfterClose } from "./socketWrite.mjs"

const root = fileURLToPath(new URL("../", import.meta.url))
const outDir = Path.join(root, ".build")
/** The bundle: `.build/main.js`. */
export const bundle = Path.join(outDir, "main.js")
/** Files the program is read from besides its sources: a change in them rebuilds. */
const inputs = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "scripts/start.mjs",
  "scripts/bundle.mjs",
  "scripts/mapCopies.mjs",
  "scripts/layeredMap.mjs",
  "scripts/socketWrite.mjs"
]

/** The newest modification time among the sources and `inputs`, in ms. */
const newestInput = () => {
  let newest = 0
  const visit = (path) => {
    const stat = Fs.statSync(path)
    if (stat.isDirectory()) { for (const entry of Fs.readdirSync(path)) visit(Path.join(path, entry)) }
    else newest = Math.max(newest, stat.mtimeMs)
  }
  visit(Path.join(root, "src"))
  for (const input of inputs) {
    if (Fs.existsSync(Path.join(root, input))) visit(Path.join(root, input))
  }
  return newest
}

const upToDate = () => Fs.existsSync(bundle) && Fs.statSync(bundle).mtimeMs > newestInput()

/** Build the bundle when a source or input is newer than it (or it is missing). */
export const ensureBundle = async () => {
  if (upToDate()) return
  const started = performance.now()
  // Loaded only to build: a start with nothing changed does not pay for it.
  const { build } = await import("esbuild")
  await build({
    entryPoints: [Path.join(root, "src", "main.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The packages are bundled too: Node then reads one file instead of resolving and loading some two thousand
    // modules (about a second less of a start). Kept outside: PGlite, its pgvector extension and tiktoken (through
    // Anthropic's tokenizer), which read their WebAssembly next to their modules, the optional native add-ons, and
    // pdf.js (3 MB, loaded on a node's first PDF; it finds its optional canvas add-on next to itself).
    external: [
      "@electric-sql/pglite",
      "@electric-sql/pglite-pgvector",
      "pg-native",
      "msgpackr-extract",
      "tiktoken",
      "@anthropic-ai/tokenizer",
      "pdfjs-dist"
    ],
    // Some packages call `require` from their ES modules.
    banner: {
      js:
        "import { createRequire as parleyCreateRequire } from 'node:module'; const require = parleyCreateRequire(import.meta.url);"
    },
    // Effect's copies of a fiber's services, made with less garbage (`mapCopies.mjs`), and a runner
    // socket's write after it closed failing as a socket error (`socketWrite.mjs`).
    plugins: [cheapMapCopies, socketWriteAfterClose],
    // A source map beside it (run with --enable-source-maps to read stack traces by it: a second longer a start).
    sourcemap: true,
    logLevel: "warning"
  })
  // Read at run time next to the program (src/embed/WidgetScript.ts), and the PDF reader's thread, started
  // from beside it (src/services/aiAgents/PdfText.ts; it imports pdf.js from node_modules).
  Fs.copyFileSync(Path.join(root, "src", "embed", "widget.js"), Path.join(outDir, "widget.js"))
  Fs.copyFileSync(Path.join(root, "src", "services", "aiAgents", "pdfWorker.mjs"), Path.join(outDir, "pdfWorker.mjs"))
  console.error(`start: built .build/main.js in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
