/**
 * Deployments, assembled: the service behind the deployment routes, the
 * analytics over deployed conversations, and the embed tokens' check (with
 * the repository it reads them from). It needs the Assistants service, the
 * audit log, the rate limiter and the database.
 */
import { Layer } from "effect"
import { AnalyticsRepo } from "../../persistence/deployments/AnalyticsRepo.js"
import { DeploymentRepo } from "../../persistence/deployments/DeploymentRepo.js"
import { AssistantAnalytics } from "./AssistantAnalytics.js"
import { Deployments } from "./Deployments.js"
import { EmbedTokens } from "./EmbedTokens.js"

export const DeploymentsLive = Layer.mergeAll(
  Deployments.DefaultWithoutDependencies,
  AssistantAnalytics.DefaultWithoutDependencies,
  EmbedTokens.Default
).pipe(Layer.provide(AnalyticsRepo.Default), Layer.provideMerge(DeploymentRepo.Default))
