/**
 * CSV as the intent corpora write it (BANKING77's `text,category`): RFC 4180
 * quoting, CRLF or LF line ends, blank lines skipped.
 */

/** The rows of a CSV text, the header included. */
export const csvRows = (source: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!
    if (quoted) {
      if (char === "\"" && source[index + 1] === "\"") {
        field += "\""
        index++
      } else if (char === "\"") quoted = false
      else field += char
    } else if (char === "\"") quoted = true
    else if (char === ",") {
      row.push(field)
      field = ""
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[index + 1] === "\n") index++
      row.push(field)
      if (row.some((cell) => cell.length > 0)) rows.push(row)
      row = []
      field = ""
    } else field += char
  }
  row.push(field)
  if (row.some((cell) => cell.length > 0)) rows.push(row)
  return rows
}
