/** Imports and exports, assembled over the Assistants services. */
import { Layer } from "effect"
import { ImportRepo } from "../../persistence/imports/ImportRepo.js"
import { FlowExports } from "./FlowExports.js"
import { Imports } from "./Imports.js"

export const ImportsLive = Layer.mergeAll(Imports.Default, FlowExports.Default).pipe(Layer.provide(ImportRepo.Default))
