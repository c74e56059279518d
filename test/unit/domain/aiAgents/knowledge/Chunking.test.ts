import { describe, expect, it } from "@effect/vitest"
import { chunkText } from "../../../../../src/domain/aiAgents/knowledge/Chunking.js"

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const sentence = (i: number) => `Sentence number ${i} says something about refunds and card payments.`
const paragraph = (from: number, count: number) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(" ")

describe("chunkText", () => {
  it("follows Markdown headings: a heading path per chunk, no chunk across two sections", () => {
    const text = "Intro line.\n\n# Refunds\n\nGeneral terms.\n\n## Card payments\n\nCards take 5 days.\n\n" +
      "## Transfers\n\nTransfers take 2 days.\n\n# Shipping\n\nWe ship worldwide.\n"
    const chunks = chunkText(text, { structure: "markdown" })
    expect(chunks.map((chunk) => [chunk.heading, chunk.text])).toEqual([
      ["", "Intro line."],
      ["Refunds", "General terms."],
      ["Refunds › Card payments", "Cards take 5 days."],
      ["Refunds › Transfers", "Transfers take 2 days."],
      ["Shipping", "We ship worldwide."]
    ])
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2, 3, 4])
  })

  it("offsets point into the text; headings inside fenced code are not headings", () => {
    const text = "# Setup\n\n```sh\n# not a heading\nnpm install\n```\n\nDone."
    const chunks = chunkText(text, { structure: "markdown" })
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.heading).toBe("Setup")
    for (const chunk of chunks) expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text)
  })

  it("cuts long sections near the target at paragraph or sentence ends, with about 15% overlap", () => {
    const text = `# Long\n\n${paragraph(0, 20)}\n\n${paragraph(20, 20)}\n\n${paragraph(40, 20)}`
    const chunks = chunkText(text, { structure: "markdown" })
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(800)
      expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text)
      expect(chunk.heading).toBe("Long")
    }
    for (let i = 1; i < chunks.length; i++) {
      const overlap = chunks[i - 1]!.end - chunks[i]!.start
      expect(overlap).toBeGreaterThan(60)
      expect(overlap).toBeLessThan(200)
      // A chunk starts at a word's start.
      expect(/\s/.test(text[chunks[i]!.start - 1]!)).toBe(true)
    }
    // Every character of the section is in some chunk.
    expect(chunks[0]!.start).toBe(text.indexOf("Sentence"))
    expect(chunks.at(-1)!.end).toBe(text.length)
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeLessThanOrEqual(chunks[i - 1]!.end)
  })

  it("never cuts inside a surrogate pair, even without any space", () => {
    const text = "😀".repeat(1000)
    const chunks = chunkText(text, { structure: "plain", target: 101 })
    for (const chunk of chunks) {
      expect(loneSurrogate.test(chunk.text)).toBe(false)
      expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text)
    }
    expect(chunks.at(-1)!.end).toBe(text.length)
  })

  it("plain text has no headings; blank text has no chunks", () => {
    expect(chunkText("# Not a heading here\n\nText.", { structure: "plain" })[0]!.heading).toBe("")
    expect(chunkText("  \n\n ", { structure: "markdown" })).toEqual([])
    expect(chunkText("", { structure: "plain" })).toEqual([])
  })
})
