import { SipayClient } from "../../sipay"
import { istanbulTimestamp, startFakeGateway, TEST_MERCHANT, type FakeGateway } from "../../sipay/__tests__/support/fake-gateway"
import { rowsOf } from "../database"
import { credentialKey, openToken, PostgresTokenStore, sealToken } from "../token-store"
import { scratchDatabase } from "./scratch-database"

jest.setTimeout(20000)

const found = { body: { status_code: 100, status_description: "Success", transaction_status: "Completed", invoice_id: "inv_1" } }

let scratch: Awaited<ReturnType<typeof scratchDatabase>>
let gateway: FakeGateway

beforeAll(async () => {
  scratch = await scratchDatabase()
})
afterAll(() => scratch?.drop())

beforeEach(async () => {
  await scratch.db.raw(`delete from "sipay_shared_token"`)
  gateway = await startFakeGateway({ "/api/checkstatus": () => found })
})
afterEach(() => gateway.close())

const credentials = () => ({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT })

/** A client as one process of a cluster has it: its own pool on the shared database. */
function processClient(lockTimeoutMs?: number) {
  const db = scratch.connect()
  return new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT, tokenStore: new PostgresTokenStore(() => db, credentials(), lockTimeoutMs) })
}

describe("a token shared through PostgreSQL", () => {
  it("is fetched once for three processes making 30 concurrent calls", async () => {
    gateway.on("/api/token", () => ({
      delayMs: 100,
      body: { status_code: 100, data: { token: "tok-cluster-1", is_3d: 1, expires_at: istanbulTimestamp(new Date(Date.now() + 7200_000)) } },
    }))
    const processes = [processClient(), processClient(), processClient()]
    await Promise.all(processes.flatMap((client) => Array.from({ length: 10 }, (_, i) => client.checkStatus(`inv_${i}`))))
    expect(gateway.to("/api/token")).toHaveLength(1)
    expect(new Set(gateway.to("/api/checkstatus").map((request) => request.headers.authorization))).toEqual(new Set(["Bearer tok-cluster-1"]))
  })

  it("is kept sealed: the row holds neither the token nor the app secret in clear", async () => {
    await processClient().getToken()
    const rows = rowsOf<{ key: string; sealed: string }>(await scratch.db.raw(`select * from "sipay_shared_token"`))
    expect(rows).toHaveLength(1)
    const row = JSON.stringify(rows[0])
    expect(row).not.toContain(gateway.tokensIssued[0])
    expect(row).not.toContain(TEST_MERCHANT.appSecret)
    expect(row).not.toContain(TEST_MERCHANT.merchantKey)
    expect(rows[0].key).toBe(credentialKey(credentials()))
  })

  it("is fetched again by a process whose call was refused, once, and the others take the replacement", async () => {
    const [first, second] = [processClient(), processClient()]
    await first.checkStatus("inv_1")
    await second.checkStatus("inv_1")
    expect(gateway.to("/api/token")).toHaveLength(1)
    const stale = gateway.tokensIssued[0]
    gateway.on("/api/checkstatus", (request) => (request.headers.authorization === `Bearer ${stale}` ? { status: 401, body: {} } : found))
    await first.checkStatus("inv_2")
    await second.checkStatus("inv_3") // refused with the stale token, then takes the one `first` stored
    expect(gateway.to("/api/token")).toHaveLength(2)
    expect(gateway.to("/api/checkstatus").slice(-3).map((request) => request.headers.authorization)).toEqual([
      `Bearer ${gateway.tokensIssued[1]}`,
      `Bearer ${stale}`,
      `Bearer ${gateway.tokensIssued[1]}`,
    ])
  })

  it("is not reused within 5 minutes of its expiry: the next process fetches and shares a new one", async () => {
    gateway.on("/api/token", (_, index) => ({
      body: { status_code: 100, data: { token: `t${index}`, is_3d: 1, expires_at: istanbulTimestamp(new Date(Date.now() + (index === 0 ? 4 : 120) * 60_000)) } },
    }))
    await processClient().getToken()
    await processClient().getToken()
    await processClient().getToken()
    expect(gateway.to("/api/token")).toHaveLength(2)
  })

  it("is fetched anew by testConnection (it proves the credentials), and the new one is shared", async () => {
    const [first, second] = [processClient(), processClient()]
    await first.getToken()
    await second.testConnection()
    expect(gateway.to("/api/token")).toHaveLength(2)
    await expect(processClient().getToken()).resolves.toMatchObject({ token: gateway.tokensIssued[1] })
  })

  it("still works without the table (migrations not run): each process fetches its own", async () => {
    const db = scratch.connect()
    const store = new PostgresTokenStore(() => db, credentials())
    await db.raw(`alter table "sipay_shared_token" rename to "sipay_shared_token_away"`)
    try {
      const client = new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT, tokenStore: store })
      await expect(client.checkStatus("inv_1")).resolves.toMatchObject({ found: true })
      expect(gateway.to("/api/token")).toHaveLength(1)
    } finally {
      await db.raw(`alter table "sipay_shared_token_away" rename to "sipay_shared_token"`)
    }
  })

  it("does not wait forever for a process holding the refresh lock: past the lock timeout it fetches its own", async () => {
    const holder = scratch.connect()
    const holderStore = new PostgresTokenStore(() => holder, credentials())
    let release!: () => void
    const entered = new Promise<void>((resolve) => {
      void holderStore.withRefreshLock(() => {
        resolve()
        return new Promise<void>((done) => (release = done))
      })
    })
    await entered
    await expect(processClient(200).checkStatus("inv_1")).resolves.toMatchObject({ found: true })
    expect(gateway.to("/api/token")).toHaveLength(1)
    release()
  })

  it("reports a refused fetch (bad credentials) once, without a second fetch outside the lock", async () => {
    gateway.on("/api/token", () => ({ status: 401, body: { status_code: 30, status_description: "Invalid credentials" } }))
    await expect(processClient().checkStatus("inv_1")).rejects.toMatchObject({ operation: "token", statusCode: 30 })
    expect(gateway.to("/api/token")).toHaveLength(1)
  })
})

describe("sealToken / openToken", () => {
  const token = { token: "tok-secret-value", is3d: 2, expiresAt: new Date("2030-01-01T00:00:00Z") }

  it("opens what it sealed, with the same app secret, key and expiry only", () => {
    const sealed = sealToken(token, "app-secret", "k1")
    expect(sealed).not.toContain("tok-secret-value")
    expect(openToken(sealed, token.expiresAt, "app-secret", "k1")).toEqual(token)
    expect(openToken(sealed, token.expiresAt, "other-secret", "k1")).toBeNull()
    expect(openToken(sealed, token.expiresAt, "app-secret", "k2")).toBeNull()
    expect(openToken(sealed, new Date("2031-01-01T00:00:00Z"), "app-secret", "k1")).toBeNull()
    expect(openToken("garbage", token.expiresAt, "app-secret", "k1")).toBeNull()
  })
})
