import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto"
import type { SharedTokenStore, TokenInfo } from "../sipay"
import { withAdvisoryLock } from "./advisory-lock"
import { rowsOf, type DatabaseSource } from "./database"

export type CredentialSet = { baseUrl: string; appId: string; appSecret: string; merchantKey: string }

/** The row key of a credential set: a digest, so no credential is readable in the table. */
export function credentialKey(credentials: CredentialSet): string {
  return createHash("sha256")
    .update([credentials.baseUrl, credentials.appId, credentials.merchantKey, credentials.appSecret].join("\n"))
    .digest("hex")
    .slice(0, 40)
}

const SEAL_INFO = "medusa-plugin-sipay shared gateway token v1"

/** AES-256-GCM under a key derived (HKDF-SHA256) from the app secret; the row key and expiry are authenticated too. */
export function sealToken(token: TokenInfo, appSecret: string, key: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", sealingKey(appSecret, key), iv)
  cipher.setAAD(Buffer.from(`${key}|${token.expiresAt.getTime()}`))
  const body = Buffer.concat([cipher.update(JSON.stringify({ token: token.token, is3d: token.is3d }), "utf8"), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".")
}

/** The token, or null when the value was not sealed with this app secret for this key and expiry. */
export function openToken(sealed: string, expiresAt: Date, appSecret: string, key: string): TokenInfo | null {
  try {
    const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"))
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(appSecret, key), iv)
    decipher.setAAD(Buffer.from(`${key}|${expiresAt.getTime()}`))
    decipher.setAuthTag(tag)
    const { token, is3d } = JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8"))
    return typeof token === "string" && token !== "" ? { token, is3d: Number(is3d ?? 0), expiresAt } : null
  } catch {
    return null
  }
}

function sealingKey(appSecret: string, key: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, key, SEAL_INFO, 32))
}

/**
 * The gateway token of one credential set, shared by every process on the store's PostgreSQL: one
 * row (sealed), and an advisory lock so one process fetches while the others wait and then read it.
 */
export class PostgresTokenStore implements SharedTokenStore {
  private readonly key: string

  constructor(
    private readonly database: DatabaseSource,
    private readonly credentials: CredentialSet,
    private readonly lockTimeoutMs = 30_000
  ) {
    this.key = credentialKey(credentials)
  }

  async read(): Promise<TokenInfo | null> {
    const answer = await this.db().raw(`select "sealed", "expires_at" from "sipay_shared_token" where "key" = ?`, [this.key])
    const [row] = rowsOf<{ sealed: string; expires_at: Date | string }>(answer)
    return row ? openToken(row.sealed, new Date(row.expires_at), this.credentials.appSecret, this.key) : null
  }

  async write(token: TokenInfo): Promise<void> {
    const sealed = sealToken(token, this.credentials.appSecret, this.key)
    await this.db().raw(
      `insert into "sipay_shared_token" ("key", "sealed", "expires_at", "updated_at") values (?, ?, ?, now())
       on conflict ("key") do update set "sealed" = excluded."sealed", "expires_at" = excluded."expires_at", "updated_at" = now()`,
      [this.key, sealed, token.expiresAt]
    )
  }

  withRefreshLock<T>(refresh: () => Promise<T>): Promise<T> {
    return withAdvisoryLock(this.db(), `sipay:token:${this.key}`, refresh, { timeoutMs: this.lockTimeoutMs })
  }

  private db() {
    const db = this.database()
    if (!db) {
      throw new Error("no database for the shared gateway token")
    }
    return db
  }
}
