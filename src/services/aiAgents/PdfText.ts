/**
 * The text of an uploaded PDF, for a `pdf` knowledge document: read with
 * Mozilla's pdf.js (`pdfjs-dist`, its legacy build, which supports Node 20)
 * in a thread of its own (`pdfWorker.mjs`, a `worker_threads` Worker per
 * file), so that whatever a page holds the node's event loop stays free, and
 * the file is bounded: its streams may inflate to at most `inflated` bytes
 * (measured before pdf.js sees it, `PdfInflation`), at most `pages` pages,
 * `time` in all and a heap of `heapMb` for the reader (the thread is
 * terminated at either), the node's memory may not grow by more than `memory`
 * while it reads (the ArrayBuffers pdf.js decodes into are outside the heap
 * limit), no evaluated code (fonts are not compiled with `eval`) and no
 * fetches. The runs of text it gives are laid out as paragraphs and headings
 * by `PdfLayout.pdfText`, here. Every way a file can fail (not a PDF,
 * protected by a password, corrupt, too large inflated, too many pages, no
 * text layer, too slow) is a `PdfUnreadable` with a reason a user can act on.
 */
import { Data, Duration, Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import { MAX_KNOWLEDGE_CHARACTERS } from "../../domain/aiAgents/Knowledge.js"
import type { DocumentText } from "../../domain/aiAgents/knowledge/DocumentText.js"
import { pdfText, type PdfTextRun } from "../../domain/aiAgents/knowledge/PdfLayout.js"
import { excerpt } from "../../domain/Excerpt.js"
import { pdfInflatedSize } from "./PdfInflation.js"

/** The bounds of reading one PDF. */
export interface PdfLimits {
  /** The most pages a PDF may have. */
  readonly pages: number
  /** How long reading one PDF may take, its thread started and the inflation measured included. */
  readonly time: Duration.Duration
  /** The most bytes the file's FlateDecode streams may inflate to, all together. */
  readonly inflated: number
  /** The reader thread's JavaScript heap (its old generation), in MiB. */
  readonly heapMb: number
  /** How much the node's resident memory may grow while the reader works. */
  readonly memory: number
}

const MiB = 1024 * 1024

/**
 * The limits of a node. 256 MiB inflated is some fifty times what the text of a 7 MiB PDF with
 * 5,000,000 characters needs (text content streams deflate 3 to 10 times), and leaves room for
 * fonts and well-compressed images in the same file.
 */
export const PDF_LIMITS: PdfLimits = {
  pages: 2000,
  time: Duration.seconds(60),
  inflated: 256 * MiB,
  heapMb: 512,
  memory: 1024 * MiB
}

/** Why a PDF's text could not be read. */
export class PdfUnreadable extends Data.TaggedError("PdfUnreadable")<{ readonly reason: string }> {}

/** What the reader thread posts (`pdfWorker.mjs`). */
type ReaderMessage =
  | { readonly tag: "opened"; readonly pages: number }
  | { readonly tag: "page"; readonly number: number; readonly runs: Array<PdfTextRun> }
  | { readonly tag: "done" }
  | { readonly tag: "failed"; readonly name: string; readonly message: string; readonly page?: number }

/** Beside this module: `src/services/aiAgents/`, `dist/services/aiAgents/`, or `.build/` next to the bundle. */
const READER = new URL("./pdfWorker.mjs", import.meta.url)

/** How often the node's resident memory is read while a reader works. */
const MEMORY_WATCH_MILLIS = 50

/** Whether the bytes start like a PDF: `%PDF-` within the first KiB (readers allow a little junk before it). */
const looksLikePdf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes("%PDF-")

/** A pdf.js failure as a reason for the user. */
const reasonOf = (name: string, message: string): string => {
  if (name === "PasswordException") {
    return "The PDF is protected by a password: upload a copy without password protection"
  }
  if (name === "InvalidPDFException") return `The PDF is corrupt or truncated: ${message}`
  return excerpt(`The PDF could not be read: ${message}`, 500)
}

const unreadable = (reason: string) => new PdfUnreadable({ reason })

const mebibytes = (bytes: number) => `${Math.round(bytes / MiB)} MiB`

const make = (limits: PdfLimits) => {
  /**
   * The runs of text of each page, in order, from a reader thread; it is terminated when the read
   * fails, passes a limit or is interrupted (the time limit).
   */
  const readPages = (bytes: Uint8Array) =>
    Effect.async<Array<Array<PdfTextRun>>, string>((resume) => {
      // A copy, handed over to the thread.
      const data = new Uint8Array(bytes)
      const reader = new Worker(READER, {
        workerData: { data },
        transferList: [data.buffer],
        resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
        // Plain JavaScript: none of the node's flags or loaders (tsx's, in development, doubles the start).
        execArgv: []
      })
      const pages: Array<Array<PdfTextRun>> = []
      let characters = 0
      let settled = false
      const rssAtStart = process.memoryUsage.rss()
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - rssAtStart > limits.memory) {
          settle(Effect.fail(`Reading the PDF took more than ${mebibytes(limits.memory)} of memory`))
        }
      }, MEMORY_WATCH_MILLIS)
      function settle(result: Effect.Effect<Array<Array<PdfTextRun>>, string>) {
        if (settled) return
        settled = true
        clearInterval(watch)
        void reader.terminate()
        resume(result)
      }
      reader.on("message", (message: ReaderMessage) => {
        switch (message.tag) {
          case "opened":
            if (message.pages > limits.pages) {
              settle(Effect.fail(`The PDF has ${message.pages} pages; at most ${limits.pages} are read`))
            }
            return
          case "page":
            pages.push(message.runs)
            characters += message.runs.reduce((sum, run) => sum + run.text.length, 0)
            if (characters > MAX_KNOWLEDGE_CHARACTERS) {
              settle(Effect.fail(`The PDF's text is longer than ${MAX_KNOWLEDGE_CHARACTERS} characters`))
            }
            return
          case "done":
            return settle(Effect.succeed(pages))
          case "failed":
            return settle(Effect.fail(
              message.page === undefined
                ? reasonOf(message.name, message.message)
                : `Page ${message.page} of the PDF could not be read: ${reasonOf(message.name, message.message)}`
            ))
        }
      })
      reader.on("error", (error: Error & { readonly code?: string }) =>
        settle(Effect.fail(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `Reading the PDF took more than ${limits.heapMb} MiB of memory`
            : excerpt(`The PDF could not be read: ${error.message}`, 500)
        )))
      reader.on("exit", (code) => settle(Effect.fail(`The PDF reader stopped unexpectedly (exit code ${code})`)))
      return Effect.sync(() => {
        if (settled) return
        settled = true
        clearInterval(watch)
        void reader.terminate()
      })
    })

  /** Fails when the file's streams inflate to more than the limit. */
  const boundInflation = (bytes: Uint8Array) =>
    pdfInflatedSize(bytes, limits.inflated).pipe(
      Effect.filterOrFail(
        (size) => size <= limits.inflated,
        () => `The PDF expands to more than ${mebibytes(limits.inflated)} when decompressed`
      )
    )

  /** The text of a PDF file, laid out for indexing. */
  const extract = Effect.fn("PdfText.extract")(function*(bytes: Uint8Array) {
    if (bytes.byteLength === 0) return yield* unreadable("The file is empty")
    if (!looksLikePdf(bytes)) return yield* unreadable("The file is not a PDF (it has no %PDF- header)")
    const started = Date.now()
    const pages = yield* boundInflation(bytes).pipe(
      Effect.zipRight(readPages(bytes)),
      Effect.timeoutFail({
        duration: limits.time,
        onTimeout: () => `Reading the PDF took longer than ${Duration.format(limits.time)}`
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
}

export class PdfText extends Effect.Service<PdfText>()("parley/services/aiAgents/PdfText", {
  succeed: make(PDF_LIMITS)
}) {
  /** The reader with other limits (a test's time limit short enough to reach). */
  static readonly layerWith = (limits: Partial<PdfLimits>) =>
    Layer.succeed(PdfText, new PdfText(make({ ...PDF_LIMITS, ...limits })))
}
