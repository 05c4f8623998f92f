import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { SharedStateDatabase } from "../shared-state/database"
import type { ConfigurationCause } from "../sipay/configuration-refusal"
import { claimAlert, releaseAlert } from "./store"
import { CONFIGURATION_ALERT_TITLE, CONFIGURATION_PROBLEM_TEXTS } from "./texts"

export type ConfigurationRefusal = {
  cause: ConfigurationCause
  /** Where it was met: the gateway operation or the plugin's own check ("checkout"). */
  operation: string
  /** The gateway's own description (never a secret: the gateway's text, or the plugin's). */
  detail: string
}

type Logger = { error(message: string): void; warn(message: string): void }
type Notifications = { createNotifications(data: Record<string, unknown>): Promise<unknown> }

/**
 * A configuration problem met while a shopper paid: logged as an error with its cause every time,
 * and an admin alert in Medusa's notification feed (the dashboard's bell) at most once per cause per
 * hour across every instance (a row of the plugin's module decides who alerts). Never throws: the
 * shopper's answer must not depend on it.
 */
export async function reportConfigurationRefusal(container: MedusaContainer, refusal: ConfigurationRefusal): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const texts = CONFIGURATION_PROBLEM_TEXTS[refusal.cause]
  const sipay = container.resolve<{ getOptions(): { backendUrl?: string } } | undefined>("sipay", { allowUnregistered: true })
  const backend = sipay?.getOptions().backendUrl || "{backend}"
  logger.error(`Sipay configuration problem (${refusal.cause}) during ${refusal.operation}: ${texts.en.replace(/\{backend\}/g, backend)} Detail: ${refusal.detail || "-"}`)
  const db = container.resolve<SharedStateDatabase | undefined>(ContainerRegistrationKeys.PG_CONNECTION, { allowUnregistered: true })
  if (!db) return
  let claimed = false
  try {
    claimed = await claimAlert(db, refusal.cause, `${refusal.operation}: ${refusal.detail}`.slice(0, 500))
    if (!claimed) return
    await container.resolve<Notifications>(Modules.NOTIFICATION).createNotifications({
      to: "",
      channel: "feed",
      template: "admin-ui",
      data: {
        title: CONFIGURATION_ALERT_TITLE,
        description: `${texts.tr} — ${texts.en}`.replace(/\{backend\}/g, backend),
        sipay_cause: refusal.cause,
      },
    })
  } catch (error) {
    logger.warn(`Sipay: the admin alert for ${refusal.cause} could not be sent: ${(error as Error).message}`)
    if (claimed) await releaseAlert(db, refusal.cause).catch(() => undefined)
  }
}
