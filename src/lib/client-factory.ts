import { createHash } from "node:crypto"
import { SipayClient, SipayLogger } from "./sipay"
import { SipayOptions } from "./options"
import type { DatabaseSource, SharedStateDatabase } from "./shared-state/database"
import { PostgresTokenStore } from "./shared-state/token-store"
import { resolveConfig } from "./sipay/config"

/** Medusa's key for the Knex instance on the store's PostgreSQL, in every container. */
const PG_CONNECTION = "__pg_connection__"

/**
 * One client per credential set per process: the plugin's module and both providers get the same
 * instance, hence one token. Its token is shared with the other processes through PostgreSQL.
 */
const clients = new Map<string, SipayClient>()

function credentialSetOf(options: SipayOptions) {
  const config = resolveConfig({ ...options, logger: undefined })
  return {
    baseUrl: config.baseUrl,
    panelBaseUrl: config.panelBaseUrl,
    appId: options.appId,
    appSecret: options.appSecret,
    merchantKey: options.merchantKey,
    merchantId: config.merchantId,
    timeoutMs: config.timeoutMs,
  }
}

/** The Knex instance of a Medusa container (a module's cradle), or undefined where it has none. */
export function databaseOf(cradle: unknown): DatabaseSource {
  return () => {
    try {
      return ((cradle as Record<string, unknown> | undefined)?.[PG_CONNECTION] as SharedStateDatabase | undefined) ?? undefined
    } catch {
      return undefined // an awilix cradle throws for a name it cannot resolve
    }
  }
}

/**
 * The process's gateway client for these options (the client redacts what it logs). `cradle`, a
 * Medusa container, gives the database the token is shared through.
 */
export function clientFor(options: SipayOptions, logger?: SipayLogger, cradle?: unknown): SipayClient {
  const credentials = credentialSetOf(options)
  const key = createHash("sha256").update(JSON.stringify(credentials)).digest("hex")
  const known = clients.get(key)
  if (known) {
    return known
  }
  const tokenStore = cradle
    ? new PostgresTokenStore(databaseOf(cradle), credentials, options.tokenLockTimeoutMs)
    : undefined
  const client = new SipayClient({
    brand: options.brand,
    baseUrl: options.baseUrl,
    panelBaseUrl: options.panelBaseUrl,
    appId: options.appId,
    appSecret: options.appSecret,
    merchantKey: options.merchantKey,
    merchantId: options.merchantId,
    timeoutMs: options.timeoutMs,
    tokenStore,
    logger: logger
      ? {
          debug: (message) => logger.debug?.(message),
          info: (message) => logger.info?.(message),
          warn: (message) => logger.warn?.(message),
          error: (message) => logger.error?.(message),
        }
      : undefined,
  })
  clients.set(key, client)
  return client
}
