/**
 * One entry point per request shape: a draw.io diagram, a single source
 * document, a map of files (a Rasa project, an unzipped Dialogflow export),
 * or a zip of one. Every path ends in a `Conversion`: a flow with its report,
 * or what made the source unreadable. Nothing here throws on bad input.
 */
import { excerpt } from "../Excerpt.js"
import { storable } from "../StorableText.js"
import { unzipBounded } from "./BoundedInflate.js"
import { importDialogflow } from "./Dialogflow.js"
import { importDrawio } from "./Drawio.js"
import type { ImportFormat } from "./Import.js"
import { type Conversion, unreadable } from "./ImportDraft.js"
import type { ImportSourceFormat } from "./ImportRequest.js"
import { importMermaid } from "./Mermaid.js"
import { importParley } from "./Parley.js"
import { importRasa } from "./Rasa.js"
import { storableConversion } from "./StorableConversion.js"

/**
 * Never let a converter's defect escape as a 500: report it as unreadable
 * input. What comes out is storable, whatever the files held.
 */
const guarded = (run: () => Conversion): Conversion => {
  try {
    return storableConversion(run())
  } catch (error) {
    const reason = storable(excerpt(String(error), 300))
    return unreadable([{ code: "unreadable", message: `The source could not be read: ${reason}` }])
  }
}

export const convertDrawio = (xml: string, mainPage?: string): Conversion => guarded(() => importDrawio(xml, mainPage))

const defaultName: Record<ImportSourceFormat, string> = {
  mermaid: "flowchart.mmd",
  rasa: "domain.yml",
  dialogflow: "agent.json",
  parley: "assistant.parley.json"
}

/** A single document. */
export const convertContent = (format: ImportSourceFormat, content: string, fileName?: string): Conversion =>
  guarded(() => {
    switch (format) {
      case "mermaid":
        return importMermaid(content, fileName)
      case "parley":
        return importParley(content, fileName)
      case "rasa":
      case "dialogflow":
        return convertFiles(format, { [fileName ?? defaultName[format]]: content })
    }
  })

/** A multi-file source. Mermaid and Parley read their one file. */
export const convertFiles = (format: ImportSourceFormat, files: Readonly<Record<string, string>>): Conversion =>
  guarded(() => {
    const entries = Object.entries(files)
    switch (format) {
      case "rasa":
        return importRasa(files)
      case "dialogflow":
        return importDialogflow(files)
      default: {
        if (entries.length !== 1) {
          return unreadable([{
            code: "unreadable",
            message: `A ${format} import reads one document: send it as content, or a files map of exactly one file`
          }])
        }
        const [name, content] = entries[0]!
        return format === "mermaid" ? importMermaid(content, name) : importParley(content, name)
      }
    }
  })

/** Strip the folder every path shares (a zip of `my-bot/...`). */
const withoutCommonFolder = (files: Map<string, string>): Record<string, string> => {
  const paths = [...files.keys()]
  const first = paths[0]?.split("/")[0]
  const shared = first !== undefined && paths.every((p) => p.startsWith(`${first}/`)) ? `${first}/` : ""
  return Object.fromEntries([...files].map(([path, text]) => [path.slice(shared.length), text]))
}

const decoder = new TextDecoder("utf-8", { fatal: true })

/** A zipped Rasa project or Dialogflow export. */
export const convertArchive = (format: Extract<ImportFormat, "rasa" | "dialogflow">, archive: Uint8Array): Conversion =>
  guarded(() => {
    const unzipped = unzipBounded(archive)
    if (!unzipped.ok) {
      return unreadable([{ code: "unreadable", message: `The archive was refused: ${unzipped.reason}` }])
    }
    const texts = new Map<string, string>()
    for (const [path, bytes] of unzipped.files) {
      if (path.startsWith("__MACOSX/") || path.split("/").some((part) => part === ".." || part.startsWith("."))) {
        continue
      }
      try {
        texts.set(path, decoder.decode(bytes))
      } catch {
        // Not text (an image, a model): not part of a bot's definition.
      }
    }
    if (texts.size === 0) return unreadable([{ code: "unreadable", message: "The archive holds no text file" }])
    return format === "rasa" ? importRasa(withoutCommonFolder(texts)) : importDialogflow(withoutCommonFolder(texts))
  })
