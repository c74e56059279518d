/**
 * A tiny PDF writer for the tests' fixtures (made for these tests, no third
 * party's file): pages of text lines in the standard fonts Helvetica and
 * Helvetica-Bold (WinAnsi, so ASCII text) and filled rectangles, or a page's
 * content stream given deflated (`FlateDecode`), with a correct
 * cross-reference table; optionally encrypted with the PDF standard
 * security handler (revision 2, 40-bit RC4, PDF 1.7 §7.6.3) under a user
 * password, so that a reader needs the password to open it. The output is
 * deterministic: the same pages give the same bytes. `repeatedDeflate` makes
 * a zlib stream of gigabytes in a few KiB per 16 MiB, fast (a bomb).
 */
import * as Crypto from "node:crypto"
import * as Zlib from "node:zlib"

/** What a page shows: text lines (baseline at `x`, `y` in points from the bottom left) and rectangles. */
export type PdfMark =
  | { readonly text: string; readonly x: number; readonly y: number; readonly size: number; readonly bold?: boolean }
  | { readonly rectangle: readonly [x: number, y: number, width: number, height: number] }

/** A page whose content stream is this zlib stream, written as is with `/Filter /FlateDecode`. */
export interface PdfDeflatedPage {
  readonly deflated: Uint8Array
}

export interface PdfOptions {
  /** Encrypt with this user password (owner password "owner"). */
  readonly userPassword?: string
}

/** The padding string of the standard security handler (Algorithm 2). */
const PADDING = Buffer.from(
  "28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a",
  "hex"
)

const padded = (password: string) => Buffer.concat([Buffer.from(password, "latin1"), PADDING]).subarray(0, 32)

const md5 = (...parts: ReadonlyArray<Uint8Array>) => {
  const hash = Crypto.createHash("md5")
  for (const part of parts) hash.update(part)
  return hash.digest()
}

/** RC4 (OpenSSL 3 leaves it out of its default provider, and it is ten lines). */
const rc4 = (key: Uint8Array, data: Uint8Array): Buffer => {
  const s = Array.from({ length: 256 }, (_, i) => i)
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255
    ;[s[i], s[j]] = [s[j]!, s[i]!]
  }
  const out = Buffer.alloc(data.length)
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255
    j = (j + s[i]!) & 255
    ;[s[i], s[j]] = [s[j]!, s[i]!]
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!
  }
  return out
}

const escapeText = (text: string) => text.replace(/[\\()]/g, (match) => `\\${match}`)

const contentOf = (marks: ReadonlyArray<PdfMark>) =>
  marks.map((mark) =>
    "rectangle" in mark
      ? `0.5 g ${mark.rectangle.join(" ")} re f`
      : `BT /${mark.bold === true ? "F2" : "F1"} ${mark.size} Tf ${mark.x} ${mark.y} Td (${
        escapeText(mark.text)
      }) Tj ET`
  ).join("\n")

/** A PDF of these pages (each a list of marks), A4 portrait. */
export const pdfDocument = (
  pages: ReadonlyArray<ReadonlyArray<PdfMark> | PdfDeflatedPage>,
  options: PdfOptions = {}
): Uint8Array => {
  const fileId = md5(...pages.map((page) => "deflated" in page ? page.deflated : Buffer.from(JSON.stringify(page))))
  const permissions = -4
  let key: Buffer | undefined
  let encryptDictionary = ""
  if (options.userPassword !== undefined) {
    const owner = rc4(md5(padded("owner")).subarray(0, 5), padded(options.userPassword))
    const p = Buffer.alloc(4)
    p.writeInt32LE(permissions)
    key = md5(padded(options.userPassword), owner, p, fileId).subarray(0, 5)
    const user = rc4(key, PADDING)
    encryptDictionary = `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString("hex")}> /U <${
      user.toString("hex")
    }> /P ${permissions} >>`
  }
  const objects: Array<string | { readonly dictionary: string; readonly data: Buffer }> = []
  const add = (object: (typeof objects)[number]) => objects.push(object)
  const pageIds = pages.map((_, index) => 5 + index * 2)
  add("<< /Type /Catalog /Pages 2 0 R >>")
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`)
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
  pages.forEach((marks, index) => {
    const contentId = pageIds[index]! + 1
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> ` +
        `/Contents ${contentId} 0 R >>`
    )
    const plain = "deflated" in marks ? Buffer.from(marks.deflated) : Buffer.from(contentOf(marks), "latin1")
    const data = key === undefined
      ? plain
      : rc4(
        md5(key, Buffer.from([contentId & 255, (contentId >> 8) & 255, contentId >> 16, 0, 0])).subarray(0, 10),
        plain
      )
    add({ dictionary: `<< /Length ${data.length}${"deflated" in marks ? " /Filter /FlateDecode" : ""} >>`, data })
  })
  if (key !== undefined) add(encryptDictionary)
  const chunks: Array<Buffer> = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")]
  let length = chunks[0]!.length
  const offsets: Array<number> = []
  const write = (chunk: Buffer) => {
    chunks.push(chunk)
    length += chunk.length
  }
  objects.forEach((object, index) => {
    offsets.push(length)
    if (typeof object === "string") {
      write(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, "latin1"))
    } else {
      write(Buffer.from(`${index + 1} 0 obj\n${object.dictionary}\nstream\n`, "latin1"))
      write(object.data)
      write(Buffer.from("\nendstream\nendobj\n", "latin1"))
    }
  })
  const xref = length
  const entries = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")
  const id = `<${fileId.toString("hex")}>`
  write(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} ` +
        `/Root 1 0 R${key === undefined ? "" : ` /Encrypt ${objects.length} 0 R`} /ID [${id} ${id}] >>\n` +
        `startxref\n${xref}\n%%EOF\n`,
      "latin1"
    )
  )
  return new Uint8Array(Buffer.concat(chunks))
}

/** Lines of body text from `top` down, `leading` points apart, at the left margin. */
export const paragraphLines = (lines: ReadonlyArray<string>, top: number, size = 11, leading = 14): Array<PdfMark> =>
  lines.map((text, index) => ({ text, x: 72, y: top - index * leading, size }))

/** Two pages: a title, a section heading, hyphenated body text, and a paragraph on the second page. */
export const handbookPdf = (): Uint8Array =>
  pdfDocument([
    [
      { text: "Refund policy", x: 72, y: 780, size: 20, bold: true },
      ...paragraphLines(["We refund every order within thirty days of deli-", "very to the card that paid."], 740),
      { text: "Card payments", x: 72, y: 690, size: 15, bold: true },
      ...paragraphLines(["A credit card refund arrives within five business", "days; the zebra code is ZX-41."], 660),
      ...paragraphLines(["Bank transfers take longer."], 620)
    ],
    paragraphLines(["Clause 7: the ocelot liability ends", "after one year."], 780)
  ])

/** Adler-32 of `count` copies of bytes whose Adler-32 is `adler` and length `length` (zlib's `adler32_combine`, repeated). */
const adlerRepeated = (adler: number, length: number, count: number) => {
  const BASE = 65521
  let a = 1
  let b = 0
  for (let i = 0; i < count; i++) {
    b = (b + length % BASE * a + (adler >>> 16) + BASE - length % BASE) % BASE
    a = (a + (adler & 0xffff) + BASE - 1) % BASE
  }
  return ((b << 16) | a) >>> 0
}

const adler32 = (bytes: Uint8Array) => {
  let a = 1
  let b = 0
  for (const byte of bytes) {
    a = (a + byte) % 65521
    b = (b + a) % 65521
  }
  return ((b << 16) | a) >>> 0
}

/**
 * A zlib stream of `unit` repeated to `size` bytes (a multiple of 16 MiB, or less): one 16 MiB block
 * deflated once, without its end (a sync flush), then repeated; an empty final block and the checksum.
 */
export const repeatedDeflate = (unit: string, size: number): Uint8Array => {
  const blockSize = Math.min(size, 16 * 1024 * 1024)
  const block = Buffer.alloc(blockSize, unit, "latin1")
  const body = Zlib.deflateRawSync(block, { level: 9, finishFlush: Zlib.constants.Z_SYNC_FLUSH })
  const count = Math.ceil(size / blockSize)
  const checksum = Buffer.alloc(4)
  checksum.writeUInt32BE(adlerRepeated(adler32(block), blockSize, count))
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x78, 0xda]),
      ...Array.from({ length: count }, () => body),
      Buffer.from([0x03, 0x00]),
      checksum
    ])
  )
}
