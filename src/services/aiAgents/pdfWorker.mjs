/**
 * The PDF reader's thread (`PdfText` starts one per file, a `worker_threads`
 * Worker): pdf.js (`pdfjs-dist`, legacy build) opens the bytes it is given as
 * `workerData.data` and posts what it finds, so that the node's own thread
 * stays free whatever a page holds and can terminate this one at its time or
 * memory limit. Plain JavaScript beside its module (and copied next to the
 * bundle by `scripts/bundle.mjs`), so it runs the same from the sources, from
 * `dist/` and from `.build/main.js`. Messages, in order:
 *   { tag: "opened", pages }                  the document opened, with its page count
 *   { tag: "page", number, runs }             a page's text runs ({ text, x, y, width, size })
 *   { tag: "done" }                           every page read
 *   { tag: "failed", name, message, page? }   pdf.js failed (on that page, if one)
 * The limits (pages, characters, time) are the parent's: it stops this thread.
 */
import { parentPort, workerData } from "node:worker_threads"

const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs")
// pdf.js's own worker handler, run in this thread: the page work is already off the node's thread.
const { WorkerMessageHandler } = await import("pdfjs-dist/legacy/build/pdf.worker.mjs")
globalThis.pdfjsWorker = { WorkerMessageHandler }

const post = (message) => parentPort.postMessage(message)
const failure = (error, page) => ({
  tag: "failed",
  name: typeof error === "object" && error !== null && "name" in error ? String(error.name) : "",
  message: error instanceof Error ? error.message : String(error),
  ...(page === undefined ? {} : { page })
})

/** A page's runs of text: strings with their baseline's start, width and font size. */
const runsOf = (content) =>
  content.items.flatMap((item) =>
    "str" in item && item.str !== ""
      ? [{
        text: item.str,
        x: Number(item.transform[4]),
        y: Number(item.transform[5]),
        width: item.width,
        size: Math.hypot(Number(item.transform[2]), Number(item.transform[3]))
      }]
      : []
  )

const task = pdfjs.getDocument({
  data: workerData.data,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  useWorkerFetch: false,
  stopAtErrors: false,
  verbosity: 0
})
let document
try {
  document = await task.promise
} catch (error) {
  post(failure(error))
}
if (document !== undefined) {
  post({ tag: "opened", pages: document.numPages })
  let number = 1
  try {
    for (; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      page.cleanup()
      post({ tag: "page", number, runs: runsOf(content) })
    }
    post({ tag: "done" })
  } catch (error) {
    post(failure(error, number))
  }
}
await task.destroy().catch(() => undefined)
