/**
 * Deployments, assembled: the service behind the deployment routes, the
 * analytics over deployed conversations, and the repository the embed
 * authentication reads tokens from. It needs the Assistants service, the
 * audit log and the database.
 */
import { Layer } from "effect"
import { AnalyticsRepo } from "../../persistence/deployments/AnalyticsRepo.js"
import { DeploymentRepo } from "../../persistence/deployments/DeploymentRepo.js"
import { AssistantAnalytics } from "./AssistantAnalytics.js"
import { Deployments } from "./Deployments.js"

export const DeploymentsLive = Layer.mergeAll(
  Deployments.DefaultWithoutDependencies,
  AssistantAnalytics.DefaultWithoutDependencies
).pipe(Layer.provide(AnalyticsRepo.Default), Layer.provideMerge(DeploymentRepo.Default))
