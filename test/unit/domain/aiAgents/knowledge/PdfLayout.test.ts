import { describe, expect, it } from "@effect/vitest"
import { pdfText, type PdfTextRun } from "../../../../../src/domain/aiAgents/knowledge/PdfLayout.js"

const run = (text: string, x: number, y: number, size = 10, width = text.length * size * 0.5): PdfTextRun => ({
  text,
  x,
  y,
  width,
  size
})

describe("pdfText", () => {
  it("joins the runs of a line, a space only where they stand apart", () => {
    const page = [run("Net", 72, 700, 10, 15), run("work", 87, 700, 10, 20), run("costs", 110, 700.4, 10, 25)]
    expect(pdfText([page])).toEqual({ text: "Network costs", structure: "plain" })
  })

  it("splits paragraphs at a larger gap and joins a hyphenated word, not a hyphen before a capital", () => {
    const page = [
      run("The refund is pro-", 72, 700),
      run("cessed at once.", 72, 688),
      run("See the North-", 72, 650),
      run("East office.", 72, 638)
    ]
    expect(pdfText([page]).text).toBe("The refund is processed at once.\n\nSee the North- East office.")
  })

  it("a heading over two lines is one heading; levels follow sizes; a body paragraph's # is escaped", () => {
    const body = (text: string, y: number) => run(text, 72, y)
    const page = [
      run("Annual report", 72, 800, 24),
      run("of the society", 72, 772, 24),
      run("Members", 72, 740, 16),
      body("# 12 members joined this year, more than in any other year of the society.", 716),
      body("Nobody left the society, and all of them paid their dues before the summer.", 690),
      run("Finances", 72, 660, 16),
      body("The society spent less than it received, for the third year in a row.", 636)
    ]
    expect(pdfText([page])).toEqual({
      text: [
        "# Annual report of the society",
        "## Members",
        "\\# 12 members joined this year, more than in any other year of the society.",
        "Nobody left the society, and all of them paid their dues before the summer.",
        "## Finances",
        "The society spent less than it received, for the third year in a row."
      ].join("\n\n"),
      structure: "markdown"
    })
  })

  it("a page break ends a paragraph; pages without text add nothing", () => {
    expect(pdfText([[run("First page ends", 72, 100)], [], [run("mid-sentence here.", 72, 800)]]).text)
      .toBe("First page ends\n\nmid-sentence here.")
    expect(pdfText([[], [run("   ", 72, 700)]])).toEqual({ text: "", structure: "plain" })
  })
})
