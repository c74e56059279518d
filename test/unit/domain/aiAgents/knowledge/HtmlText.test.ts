import { describe, expect, it } from "@effect/vitest"
import { chunkText } from "../../../../../src/domain/aiAgents/knowledge/Chunking.js"
import { fetchedText, inlineText } from "../../../../../src/domain/aiAgents/knowledge/DocumentText.js"
import { htmlToText } from "../../../../../src/domain/aiAgents/knowledge/HtmlText.js"

describe("HTML as text", () => {
  it("keeps headings as Markdown headings, blocks as lines; drops scripts, styles and the head", () => {
    const { text, title } = htmlToText(
      `<!doctype html><html><head><title> Help &amp; FAQ </title><style>p{color:red}</style></head>
      <body><script>alert("x")</script><h1>Refunds</h1><p>We refund <b>within</b> 14&nbsp;days.</p>
      <h2>Card payments</h2><ul><li>Visa</li><li>Mastercard</li></ul><p>Line one<br>line two</p>
      <noscript>enable JS</noscript></body></html>`
    )
    expect(title).toBe("Help & FAQ")
    expect(text).toBe(
      "# Refunds\n\nWe refund within 14 days.\n\n## Card payments\n\n- Visa\n- Mastercard\n\nLine one\nline two"
    )
    expect(text).not.toContain("alert")
    expect(text).not.toContain("color")
    const chunks = chunkText(text, { structure: "markdown" })
    expect(chunks.map((chunk) => chunk.heading)).toEqual(["Refunds", "Refunds › Card payments"])
  })

  it("reads each kind and each fetched media type", () => {
    expect(inlineText("markdown", "# A\n\nb").structure).toBe("markdown")
    expect(inlineText("pdf-text", "# A\n\nb")).toEqual({ text: "# A\n\nb", structure: "plain" })
    expect(inlineText("html", "<h2>A</h2><p>b</p>")).toEqual({ text: "## A\n\nb", structure: "markdown" })
    expect(fetchedText("text/html; charset=utf-8", "<p>x</p>")).toEqual({ text: "x", structure: "markdown" })
    expect(fetchedText("text/plain", "x")).toEqual({ text: "x", structure: "plain" })
    expect(fetchedText("application/pdf", "%PDF")).toHaveProperty("refused")
  })
})
