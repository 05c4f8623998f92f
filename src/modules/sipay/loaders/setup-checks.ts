import type { LoaderOptions } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SETUP_WARNING_TEXTS, setupWarningsOf } from "../../../lib/config-alerts/startup-checks"
import type { SipayOptions } from "../../../lib/options"
import type { SharedStateDatabase } from "../../../lib/shared-state/database"

/**
 * At boot, a clear warning for each enabled feature that lacks what it needs (Settings -> Sipay shows
 * the same list). Run once the app has started loading, never blocking it; a database without the
 * tables yet (db:migrate) says nothing.
 */
export default async function setupChecksLoader({ container, options }: LoaderOptions<SipayOptions>): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const db = container.resolve<SharedStateDatabase | undefined>(ContainerRegistrationKeys.PG_CONNECTION, { allowUnregistered: true })
  if (!db || !options) return
  setTimeout(() => {
    setupWarningsOf(db, options)
      .then((codes) => {
        for (const code of codes) logger.warn(`Sipay setup (${code}): ${SETUP_WARNING_TEXTS[code]}`)
      })
      .catch(() => undefined)
  }, 1000).unref()
}
