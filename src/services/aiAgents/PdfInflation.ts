/**
 * A PDF's inflated size, measured before pdf.js sees the file: a decompression
 * bomb (a few MiB of FlateDecode streams that inflate to gigabytes) would make
 * pdf.js allocate what they hold, and a Worker's heap limit does not cover the
 * ArrayBuffers it is held in. Every stream pdf.js could read (every `stream`
 * token, its data from the next line, as pdf.js's parser takes it, whatever
 * its `/Length`, direct or not: object and cross-reference streams included)
 * whose data starts with a zlib header is inflated by Node's zlib, counted and
 * dropped, until the whole file's total passes the limit: a stream of up to
 * 1 MiB at once (a 7 MiB file of 40,000 streams in 0.4 s, the event loop let
 * run every 10 ms), a larger one streamed through zlib's thread pool in
 * 256 KiB pieces, so memory stays flat. zlib is stricter than pdf.js (which
 * also accepts a header zlib refuses and decodes past a bad back-reference),
 * so the header is skipped (raw inflate) and a stream after a dictionary that
 * zlib cannot finish counts the worst deflate can do (1032 bytes for a byte)
 * for all its bytes. Not counted: streams of an encrypted file (their data is
 * enciphered), Flate behind another filter, LZW and run-length; the reader's
 * memory watch (`PdfText`) bounds those.
 */
import { Effect } from "effect"
import * as Zlib from "node:zlib"

/** The most a deflate stream can expand: a 258-byte match in two bits. */
const DEFLATE_WORST_RATIO = 1032

/** A place pdf.js may read a stream's data from. */
export interface StreamStart {
  /** Where the data starts: after the end of the line the `stream` keyword is on (pdf.js `skipToNextLine`). */
  readonly at: number
  /** Whether the keyword surely follows a dictionary (`>>`, whitespace, perhaps a comment), not text that names it. */
  readonly afterDictionary: boolean
}

const isWhitespace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00
/** Bytes that end the token before a keyword: whitespace and PDF delimiters. */
const DELIMITERS = new Set(Array.from("()<>[]{}/%", (char) => char.charCodeAt(0)))

/**
 * Every `stream` token (after whitespace or a delimiter, so not `endstream`, nor `downstream`), in
 * one linear pass: a missed stream would go uncounted, an extra one costs a header check.
 */
export const streamStarts = (bytes: Uint8Array): Array<StreamStart> => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")
  const starts: Array<StreamStart> = []
  // The last line end and `%` before the keyword, found by one forward scan, and the next line end.
  let scanned = 0
  let lineEnd = -1
  let percent = -1
  let nextLineEnd = -1
  for (let keyword = text.indexOf("stream"); keyword !== -1; keyword = text.indexOf("stream", keyword + 6)) {
    const before = bytes[keyword - 1]
    if (before !== undefined && !isWhitespace(before) && !DELIMITERS.has(before)) continue
    let back = keyword - 1
    while (back >= 0 && isWhitespace(bytes[back])) back--
    for (; scanned <= back; scanned++) {
      if (bytes[scanned] === 0x0a || bytes[scanned] === 0x0d) lineEnd = scanned
      else if (bytes[scanned] === 0x25) percent = scanned
    }
    // A `%` on the line before: a comment, which may follow the `>>`.
    const afterDictionary = (back >= 1 && bytes[back] === 0x3e && bytes[back - 1] === 0x3e) || percent > lineEnd
    // The next line end, found once for all the keywords on a line.
    if (nextLineEnd < keyword + 6) {
      nextLineEnd = keyword + 6
      while (nextLineEnd < bytes.length && bytes[nextLineEnd] !== 0x0a && bytes[nextLineEnd] !== 0x0d) nextLineEnd++
    }
    let at = nextLineEnd
    if (bytes[at] === 0x0d) at++
    if (bytes[at] === 0x0a) at++
    // Several keywords on one line share their data: one start.
    const previous = starts.at(-1)
    if (previous?.at === at) {
      starts[starts.length - 1] = { at, afterDictionary: afterDictionary || previous.afterDictionary }
    } else starts.push({ at, afterDictionary })
  }
  return starts
}

/** Whether two bytes are a zlib header as pdf.js checks it (deflate, FCHECK, no preset dictionary). */
const zlibHeader = (cmf: number | undefined, flg: number | undefined) =>
  cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0 &&
  (flg & 0x20) === 0

/** Whether the file is encrypted: its trailer (or cross-reference stream) has an `/Encrypt` entry. */
const encrypted = (bytes: Uint8Array) =>
  /\/Encrypt[\0\t\n\f\r ]*(?:\d|<<)/.test(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")
  )

/** A stream inflating to at most this is inflated at once, on this thread; a larger one through zlib's thread pool. */
const SMALL_STREAM = 1024 * 1024
/** How long the scan may hold the event loop before it lets it run. */
const SLICE_MILLIS = 10

/** Lets the event loop serve its I/O and timers. */
const breathe = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * The bytes one deflate stream (`data`, its zlib header skipped) inflates to, through a zlib stream
 * that drops what it gives, counted up to `budget` (then `budget + 1`); `undefined` when zlib fails.
 */
const streamedSize = (data: Uint8Array, budget: number) =>
  Effect.async<number | undefined>((resume) => {
    const inflate = Zlib.createInflateRaw({ chunkSize: 256 * 1024 })
    let total = 0
    let settled = false
    const settle = (size: number | undefined) => {
      if (settled) return
      settled = true
      inflate.destroy()
      resume(Effect.succeed(size))
    }
    inflate.on("data", (chunk: Buffer) => {
      total += chunk.length
      if (total > budget) settle(budget + 1)
    })
    inflate.on("end", () => settle(total))
    inflate.on("error", () => settle(undefined))
    inflate.end(data)
    return Effect.sync(() => {
      settled = true
      inflate.destroy()
    })
  })

/**
 * The bytes one deflate stream inflates to, up to `budget` (then `budget + 1`): at once when small
 * (most are), else streamed; `undefined` when zlib fails (its output before the error is not
 * all handed out, so it is not counted).
 */
const inflatedSize = (data: Uint8Array, budget: number): Effect.Effect<number | undefined> => {
  const cap = Math.min(SMALL_STREAM, budget + 1)
  try {
    return Effect.succeed(Zlib.inflateRawSync(data, { maxOutputLength: cap }).length)
  } catch (error) {
    if ((error as { readonly code?: string }).code !== "ERR_BUFFER_TOO_LARGE") return Effect.succeed(undefined)
    return cap > budget ? Effect.succeed(budget + 1) : streamedSize(data, budget)
  }
}

/**
 * The bytes the file's FlateDecode streams inflate to, counted up to `limit` (then `limit + 1`). A
 * stream after a dictionary that zlib cannot finish (in a file not encrypted) counts the worst case
 * of its bytes, up to the next stream's start.
 */
export const pdfInflatedSize = (bytes: Uint8Array, limit: number): Effect.Effect<number> =>
  Effect.gen(function*() {
    const starts = streamStarts(bytes)
    const worstCaseOnError = !encrypted(bytes)
    let total = 0
    let slice = performance.now()
    for (const [index, { afterDictionary, at }] of starts.entries()) {
      if (!zlibHeader(bytes[at], bytes[at + 1])) continue
      // To the end of the file: zlib stops at the end of the deflate stream, whatever the `/Length`.
      const size = yield* inflatedSize(bytes.subarray(at + 2), limit - total)
      const worstCase = ((starts[index + 1]?.at ?? bytes.length) - at - 2) * DEFLATE_WORST_RATIO
      total += size ?? (worstCaseOnError && afterDictionary ? worstCase : 0)
      if (total > limit) return limit + 1
      if (performance.now() - slice > SLICE_MILLIS) {
        yield* breathe
        slice = performance.now()
      }
    }
    return total
  })
