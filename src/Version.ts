import * as Fs from "node:fs"

/** Parley's version, from package.json (one directory above both `src/` and `dist/`). */
export const version: string = (
  JSON.parse(Fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version
