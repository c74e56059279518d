/**
 * PDF text extraction with pdf.js on PDFs the tests write (`PdfWriter`): a
 * document's headings, paragraphs, hyphenation and page breaks; and a clear
 * reason for every file that cannot be read (an empty file, bytes that are no
 * PDF, a truncated PDF, a PDF protected by a password, one with no text
 * layer), never a defect.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PdfText } from "../../../../src/services/aiAgents/PdfText.js"
import { handbookPdf, paragraphLines, pdfDocument, type PdfMark } from "../../../support/PdfWriter.js"

const extract = (bytes: Uint8Array) => Effect.flatMap(PdfText, (pdf) => pdf.extract(bytes))
const reasonOf = (bytes: Uint8Array) => extract(bytes).pipe(Effect.flip, Effect.map((failure) => failure.reason))

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
    }).pipe(Effect.provide(PdfText.Default)))
})
