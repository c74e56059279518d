/**
 * The text of an uploaded PDF, for a `pdf` knowledge document: read with
 * Mozilla's pdf.js (`pdfjs-dist`, its legacy build, which supports Node 20),
 * loaded on the first PDF a node reads (it stays out of the bundle and of a
 * start). pdf.js runs in this process, so a read is bounded: at most
 * `MAX_PDF_PAGES` pages and `PDF_TIME_LIMIT` in all, pages read one at a time
 * with the event loop's I/O and timers served between them, no evaluated code (fonts are
 * not compiled with `eval`) and no fetches. The runs of text it gives are laid
 * out as paragraphs and headings by `PdfLayout.pdfText`. Every way a file can
 * fail (not a PDF, protected by a password, corrupt, too many pages, no text
 * layer, too slow) is a `PdfUnreadable` with a reason a user can act on.
 */
import { Data, Duration, Effect } from "effect"
import { MAX_KNOWLEDGE_CHARACTERS } from "../../domain/aiAgents/Knowledge.js"
import type { DocumentText } from "../../domain/aiAgents/knowledge/DocumentText.js"
import { pdfText, type PdfTextRun } from "../../domain/aiAgents/knowledge/PdfLayout.js"
import { excerpt } from "../../domain/Excerpt.js"

/** The most pages a PDF may have. */
export const MAX_PDF_PAGES = 2000
/** How long reading one PDF may take. */
export const PDF_TIME_LIMIT = Duration.seconds(60)

/** Why a PDF's text could not be read. */
export class PdfUnreadable extends Data.TaggedError("PdfUnreadable")<{ readonly reason: string }> {}

// Named through a variable: the worker module has no type declarations, and only its handler is used.
const PDF_WORKER_MODULE = "pdfjs-dist/legacy/build/pdf.worker.mjs"

/** pdf.js, with its worker's handler run in this thread (Node has no web workers). */
const loadPdfJs = Effect.promise(async () => {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs")
  const worker = await import(PDF_WORKER_MODULE) as { readonly WorkerMessageHandler: unknown }
  Object.assign(globalThis, { pdfjsWorker: { WorkerMessageHandler: worker.WorkerMessageHandler } })
  return pdfjs
})

/** Whether the bytes start like a PDF: `%PDF-` within the first KiB (readers allow a little junk before it). */
const looksLikePdf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes("%PDF-")

/** A pdf.js failure as a reason for the user. */
const reasonOf = (error: unknown): string => {
  const name = typeof error === "object" && error !== null && "name" in error ? String(error.name) : ""
  const message = error instanceof Error ? error.message : String(error)
  if (name === "PasswordException") {
    return "The PDF is protected by a password: upload a copy without password protection"
  }
  if (name === "InvalidPDFException") return `The PDF is corrupt or truncated: ${message}`
  return excerpt(`The PDF could not be read: ${message}`, 500)
}

const unreadable = (reason: string) => new PdfUnreadable({ reason })

/**
 * Let the node read its sockets and timers: pdf.js (its worker's handler in this thread) works in
 * promise callbacks, which run before any I/O, so without this a whole PDF holds the event loop.
 */
const breathe = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

export class PdfText extends Effect.Service<PdfText>()("parley/services/aiAgents/PdfText", {
  effect: Effect.gen(function*() {
    const pdfjs = yield* Effect.cached(loadPdfJs)

    /** The runs of text of each page, in order. */
    const readPages = (bytes: Uint8Array, started: number) =>
      Effect.gen(function*() {
        const { getDocument } = yield* pdfjs
        return yield* Effect.acquireUseRelease(
          Effect.sync(() =>
            getDocument({
              // A copy: pdf.js takes ownership of the buffer it is given.
              data: new Uint8Array(bytes),
              isEvalSupported: false,
              disableFontFace: true,
              useSystemFonts: false,
              useWorkerFetch: false,
              stopAtErrors: false,
              verbosity: 0
            })
          ),
          (task) =>
            Effect.gen(function*() {
              const document = yield* Effect.tryPromise({ try: () => task.promise, catch: reasonOf })
              if (document.numPages > MAX_PDF_PAGES) {
                return yield* Effect.fail(
                  `The PDF has ${document.numPages} pages; at most ${MAX_PDF_PAGES} are read`
                )
              }
              const pages: Array<Array<PdfTextRun>> = []
              let characters = 0
              for (let number = 1; number <= document.numPages; number++) {
                const runs = yield* Effect.tryPromise({
                  try: async () => {
                    const page = await document.getPage(number)
                    const content = await page.getTextContent()
                    page.cleanup()
                    return content.items.flatMap((item): Array<PdfTextRun> =>
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
                  },
                  catch: (error) => `Page ${number} of the PDF could not be read: ${reasonOf(error)}`
                })
                pages.push(runs)
                characters += runs.reduce((sum, run) => sum + run.text.length, 0)
                if (characters > MAX_KNOWLEDGE_CHARACTERS) {
                  return yield* Effect.fail(`The PDF's text is longer than ${MAX_KNOWLEDGE_CHARACTERS} characters`)
                }
                if (Date.now() - started > Duration.toMillis(PDF_TIME_LIMIT)) {
                  return yield* Effect.fail(
                    `Reading the PDF took longer than ${Duration.format(PDF_TIME_LIMIT)} ` +
                      `(stopped at page ${number} of ${document.numPages})`
                  )
                }
                yield* breathe
              }
              return pages
            }),
          (task) => Effect.promise(() => task.destroy().catch(() => undefined))
        )
      })

    /** The text of a PDF file, laid out for indexing. */
    const extract = Effect.fn("PdfText.extract")(function*(bytes: Uint8Array) {
      if (bytes.byteLength === 0) return yield* unreadable("The file is empty")
      if (!looksLikePdf(bytes)) return yield* unreadable("The file is not a PDF (it has no %PDF- header)")
      const started = Date.now()
      const pages = yield* readPages(bytes, started).pipe(
        Effect.timeoutFail({
          duration: PDF_TIME_LIMIT,
          onTimeout: () => `Reading the PDF took longer than ${Duration.format(PDF_TIME_LIMIT)}`
        }),
        Effect.mapError(unreadable)
      )
      yield* Effect.annotateCurrentSpan({ pages: pages.length, millis: Date.now() - started })
      const text: DocumentText = pdfText(pages)
      if (text.text.trim() === "") {
        return yield* unreadable("The PDF has no text layer (a scanned PDF without text?): OCR is not supported")
      }
      return text
    })

    return { extract } as const
  })
}) {}
