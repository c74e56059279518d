/**
 * The inflated size of a PDF's streams, measured before pdf.js sees the file:
 * every stream pdf.js would parse is found whatever its `/Length` (indirect,
 * wrong, or with `endstream` inside its data) and after a comment, a zlib
 * header that zlib refuses but pdf.js takes is still counted, a stream that
 * breaks midway counts the worst case for all its bytes (not in an
 * encrypted file), and counting stops just past the limit.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Zlib from "node:zlib"
import { pdfInflatedSize, streamStarts } from "../../../../src/services/aiAgents/PdfInflation.js"
import { repeatedDeflate } from "../../../support/PdfWriter.js"

const latin1 = (text: string) => Buffer.from(text, "latin1")
/** A file of these parts (strings and bytes) joined. */
const file = (...parts: ReadonlyArray<string | Uint8Array>) =>
  new Uint8Array(Buffer.concat(parts.map((part) => typeof part === "string" ? latin1(part) : part)))

const MiB = 1024 * 1024

describe("PdfInflation", () => {
  it.effect("counts each stream's data to the end of its deflate stream, whatever its /Length says", () =>
    Effect.gen(function*() {
      // Stored (level 0), so the data holds the bytes `endstream` before its end.
      const tricky = Zlib.deflateSync(latin1(`${"a".repeat(1000)}\nendstream\n${"b".repeat(5000)}`), { level: 0 })
      const plain = Zlib.deflateSync(Buffer.alloc(70_000, "x"))
      const bytes = file(
        "%PDF-1.7\n4 0 obj\n<< /Length 9 0 R /Filter /FlateDecode >>\nstream\n",
        tricky,
        "\nendstream\nendobj\n9 0 obj 12 endobj\n",
        "5 0 obj\n<< /Filter /FlateDecode >> % a comment\r\nstream  \r\n",
        plain,
        "\nendstream\nendobj\n6 0 obj (a downstream word, no stream) endobj\n"
      )
      // The third, in a string, is taken too but is not after a dictionary (and starts no zlib data).
      expect(streamStarts(bytes).map((start) => start.afterDictionary)).toEqual([true, true, false])
      expect(yield* pdfInflatedSize(bytes, 10 * MiB)).toBe(6011 + 70_000)
      // Past the limit, counting stops there.
      expect(yield* pdfInflatedSize(bytes, 50_000)).toBe(50_001)
    }))

  it.effect("a header zlib refuses but pdf.js reads (a 64 KiB window) is counted", () =>
    Effect.gen(function*() {
      const raw = Zlib.deflateRawSync(Buffer.alloc(100_000))
      // CINFO 8 (a window zlib does not allow); FLG chosen so that the header's check passes.
      const cmf = 0x88
      const flg = 31 - ((cmf << 8) % 31)
      const bytes = file("%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n", Buffer.from([cmf, flg]), raw)
      expect(yield* pdfInflatedSize(bytes, 10 * MiB)).toBe(100_000)
    }))

  it.effect("a stream that breaks midway counts the worst case for all its bytes, unless the file is encrypted", () =>
    Effect.gen(function*() {
      const head = Zlib.deflateRawSync(Buffer.alloc(1000, "z"), { finishFlush: Zlib.constants.Z_SYNC_FLUSH })
      // Block type 3 does not exist: zlib stops there, pdf.js's decoder may not have.
      const broken = Buffer.concat([Buffer.from([0x78, 0x9c]), head, Buffer.from([0xff, 0xff]), Buffer.alloc(998)])
      const body = (trailer: string) =>
        file("%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n", broken, `\nendstream\nendobj\n${trailer}`)
      const counted = yield* pdfInflatedSize(body("trailer << /Root 1 0 R >>\n"), 10 * MiB)
      expect(counted).toBeGreaterThan(1000 * 1032)
      // Enciphered data would break as often: it counts only what zlib gave.
      expect(yield* pdfInflatedSize(body("trailer << /Encrypt 7 0 R >>\n"), 10 * MiB)).toBeLessThanOrEqual(1000)
    }))

  it.effect("the scan is linear: a line of a million `stream` words, two million `>>%`", () =>
    Effect.gen(function*() {
      const started = performance.now()
      expect(streamStarts(latin1(" stream".repeat(1_000_000)))).toHaveLength(1)
      expect(streamStarts(latin1(`${">>%".repeat(2_000_000)}\nstream\n`))).toEqual([{
        at: 6_000_008,
        afterDictionary: true
      }])
      expect(performance.now() - started).toBeLessThan(2000)
    }))

  it.effect("a bomb of a gigabyte in a MiB stops at the limit, fast and without holding what it inflates", () =>
    Effect.gen(function*() {
      const bomb = file("%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n", repeatedDeflate("\0", 1024 * MiB))
      expect(bomb.length).toBeLessThan(1.1 * MiB)
      const rss = process.memoryUsage.rss()
      expect(yield* pdfInflatedSize(bomb, 256 * MiB)).toBe(256 * MiB + 1)
      expect(process.memoryUsage.rss() - rss).toBeLessThan(64 * MiB)
    }))
})
