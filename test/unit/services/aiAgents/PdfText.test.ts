/**
 * PDF text extraction with pdf.js, in a thread of its own, on PDFs the tests
 * write (`PdfWriter`): a document's headings, paragraphs, hyphenation and page
 * breaks; a clear reason for every file that cannot be read (an empty file,
 * bytes that are no PDF, a truncated PDF, a PDF protected by a password, one
 * with no text layer, too many pages), never a defect; and a hostile file
 * bounded while the event loop keeps ticking: a decompression bomb (1 GiB of
 * zeros in 1 MiB) refused before pdf.js sees it, with the node's memory
 * unchanged, and a page pdf.js takes seconds over (48 MiB of `q Q`
 * operators) stopped at the time limit, its thread terminated, and a
 * reader past its heap or the node's memory limit stopped.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { PdfText } from "../../../../src/services/aiAgents/PdfText.js"
import { handbookPdf, paragraphLines, pdfDocument, type PdfMark, repeatedDeflate } from "../../../support/PdfWriter.js"

const extract = (bytes: Uint8Array) => Effect.flatMap(PdfText, (pdf) => pdf.extract(bytes))
const reasonOf = (bytes: Uint8Array) => extract(bytes).pipe(Effect.flip, Effect.map((failure) => failure.reason))

const MiB = 1024 * 1024

/** The effect's result, with the longest gap between the ticks of a 10 ms timer meanwhile and the growth of the RSS. */
const watched = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const loop = { last: performance.now(), longestGap: 0 }
      const timer = setInterval(() => {
        const now = performance.now()
        loop.longestGap = Math.max(loop.longestGap, now - loop.last)
        loop.last = now
      }, 10)
      return { loop, timer, rss: process.memoryUsage.rss() }
    }),
    ({ loop, rss }) =>
      Effect.map(effect, (result) => ({
        result,
        longestGap: Math.max(loop.longestGap, performance.now() - loop.last),
        rssGrowth: process.memoryUsage.rss() - rss
      })),
    ({ timer }) => Effect.sync(() => clearInterval(timer))
  )

describe("PdfText", () => {
  it.effect("lays out headings, paragraphs and pages; joins a word hyphenated at a line's end", () =>
    Effect.gen(function*() {
      const { structure, text } = yield* extract(handbookPdf())
      expect(structure).toBe("markdown")
      expect(text).toBe(
        [
          "# Refund policy",
          "We refund every order within thirty days of delivery to the card that paid.",
          "## Card payments",
          "A credit card refund arrives within five business days; the zebra code is ZX-41.",
          "Bank transfers take longer.",
          "Clause 7: the ocelot liability ends after one year."
        ].join("\n\n")
      )
    }).pipe(Effect.provide(PdfText.Default)))

  it.effect("an encrypted PDF opens with no password only if it has none", () =>
    Effect.gen(function*() {
      const page: ReadonlyArray<PdfMark> = paragraphLines(["The walrus discount is 12 percent."], 780)
      expect(yield* reasonOf(pdfDocument([page], { userPassword: "secret" }))).toBe(
        "The PDF is protected by a password: upload a copy without password protection"
      )
      // Encrypted with an empty user password (only an owner's): readable, as every reader opens it.
      expect((yield* extract(pdfDocument([page], { userPassword: "" }))).text).toBe(
        "The walrus discount is 12 percent."
      )
    }).pipe(Effect.provide(PdfText.Default)))

  it.effect("a file that is not a readable PDF with text fails with its reason", () =>
    Effect.gen(function*() {
      const whole = handbookPdf()
      expect(yield* reasonOf(new Uint8Array())).toBe("The file is empty")
      const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)
      expect(yield* reasonOf(garbage)).toBe("The file is not a PDF (it has no %PDF- header)")
      expect(yield* reasonOf(new TextEncoder().encode("%PDF-1.7\nnot really a PDF at all"))).toBe(
        "The PDF is corrupt or truncated: Invalid PDF structure."
      )
      expect(yield* reasonOf(pdfDocument([[{ rectangle: [100, 100, 200, 300] }]]))).toBe(
        "The PDF has no text layer (a scanned PDF without text?): OCR is not supported"
      )
      // Cut short: its cross-reference table and the end of its objects are gone.
      expect(yield* reasonOf(whole.slice(0, Math.floor(whole.length / 2)))).toBe(
        "The PDF is corrupt or truncated: Invalid PDF structure."
      )
      expect(yield* reasonOf(whole).pipe(Effect.provide(PdfText.layerWith({ pages: 1 })))).toBe(
        "The PDF has 2 pages; at most 1 are read"
      )
    }).pipe(Effect.provide(PdfText.Default)))

  it.live("a decompression bomb is refused before pdf.js reads it; the event loop ticks, memory stays as it was", () =>
    Effect.gen(function*() {
      const bomb = pdfDocument([{ deflated: repeatedDeflate("\0", 1024 * MiB) }])
      expect(bomb.length).toBeLessThan(1.1 * MiB)
      const { longestGap, result, rssGrowth } = yield* watched(reasonOf(bomb))
      expect(result).toBe("The PDF expands to more than 256 MiB when decompressed")
      expect(longestGap).toBeLessThan(250)
      expect(rssGrowth).toBeLessThan(64 * MiB)
    }).pipe(Effect.provide(PdfText.Default)))

  it.live("a page pdf.js takes seconds over is stopped at the time limit, its thread terminated; the loop ticks", () =>
    Effect.gen(function*() {
      // 48 MiB of operators that show nothing (in 49 KiB), then a page of text.
      const slow = pdfDocument([{ deflated: repeatedDeflate("q Q\n", 48 * MiB) }, paragraphLines(["After."], 780)])
      const started = performance.now()
      const { longestGap, result } = yield* watched(reasonOf(slow))
      expect(result).toBe("Reading the PDF took longer than 1s")
      expect(performance.now() - started).toBeLessThan(3000)
      expect(longestGap).toBeLessThan(250)
      // Terminated: the process no longer spends a CPU on the page.
      yield* Effect.sleep("100 millis")
      const cpu = process.cpuUsage()
      yield* Effect.sleep("500 millis")
      const spent = process.cpuUsage(cpu)
      expect((spent.user + spent.system) / 1000).toBeLessThan(250)
    }).pipe(Effect.provide(PdfText.layerWith({ time: Duration.seconds(1) }))))

  it.live("a reader past its heap, or growing the node's memory past the limit, is stopped with the reason", () =>
    Effect.gen(function*() {
      // pdf.js alone needs more than 4 MiB of heap.
      expect(yield* reasonOf(handbookPdf()).pipe(Effect.provide(PdfText.layerWith({ heapMb: 4 })))).toBe(
        "Reading the PDF took more than 4 MiB of memory"
      )
      // The page's 48 MiB inflated are outside the heap: the node's memory grows by them.
      const slow = pdfDocument([{ deflated: repeatedDeflate("q Q\n", 48 * MiB) }])
      expect(yield* reasonOf(slow).pipe(Effect.provide(PdfText.layerWith({ memory: 16 * MiB })))).toBe(
        "Reading the PDF took more than 16 MiB of memory"
      )
    }))
})
