#!/usr/bin/env node
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { cli } from "./cli/Cli.js"

cli(process.argv).pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain({ disablePrettyLogger: true }))
