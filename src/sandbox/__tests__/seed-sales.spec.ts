import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SipayClient } from "../../lib/sipay"
import type { SandboxHandle } from "../index"
import { getJson, postJson, start, tokenFor, transactionsBody } from "./support"

describe("sandbox: seed-sales (test control)", () => {
  let sandbox: SandboxHandle
  let folder: string
  let dataFile: string
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "sandbox-seed-"))
    dataFile = join(folder, "state.json")
    sandbox = await start({ dataFile })
  })
  afterAll(async () => {
    await sandbox.close()
    rmSync(folder, { recursive: true, force: true })
  })

  it("seeds N completed sales on a day in one request, saved once to the data file, listed by getTransactions", async () => {
    const seeded = await postJson(`${sandbox.link_base}/__sandbox/seed-sales`, { count: 300, date: "2026-11-20", amount: 25.5, invoice_prefix: "bulk" })
    expect(seeded).toEqual({ status: 200, body: { seeded: 300, date: "2026-11-20", invoice_prefix: "bulk", first_invoice_id: "bulk_1", last_invoice_id: "bulk_300" } })
    const saved = JSON.parse(readFileSync(dataFile, "utf8"))
    expect(saved.sales.filter((sale: any) => sale.invoice_id.startsWith("bulk_"))).toHaveLength(300)

    const token = await tokenFor(sandbox)
    const { body } = await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(sandbox.merchant.merchant_key, { date: "2026-11-20" }), token)
    expect(body.data).toHaveLength(300)
    expect(body.data[0]).toMatchObject({ invoice_id: "bulk_1", transaction_state_id: 1, gross: 25.5, currency_code: "TRY", credit_card_no: "450803****4509" })
    expect(new Set(body.data.map((sale: any) => sale.id)).size).toBe(300)
    expect(body.data.every((sale: any) => new Date(Date.parse(sale.created_at) + 3 * 3600_000).toISOString().startsWith("2026-11-20"))).toBe(true)
    const { body: nextDay } = await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(sandbox.merchant.merchant_key, { date: "2026-11-21" }), token)
    expect(nextDay.data).toEqual([])
  })

  it("refuses bad input with 400", async () => {
    for (const body of [{}, { count: 0 }, { count: 1.5 }, { count: 5, date: "20-11-2026" }, { count: 5, amount: -1 }, { count: 5, currency: "GBP" }]) {
      expect((await postJson(`${sandbox.link_base}/__sandbox/seed-sales`, body)).status).toBe(400)
    }
    expect((await getJson(`${sandbox.link_base}/__sandbox/calls`)).status).toBe(200)
  })

  it("a seeded day of 6,500 sales (over 10 MB) reaches the client record by record", async () => {
    await postJson(`${sandbox.link_base}/__sandbox/seed-sales`, { count: 6500, date: "2026-11-18", invoice_prefix: "big" })
    const client = new SipayClient({ baseUrl: sandbox.base_url, appId: sandbox.merchant.app_id, appSecret: sandbox.merchant.app_secret, merchantKey: sandbox.merchant.merchant_key })
    await fetch(`${sandbox.link_base}/__sandbox/calls`, { method: "DELETE" })
    let count = 0
    let bytes = 0
    await client.streamTransactions({ date: "2026-11-18" }, (sale) => {
      count++
      bytes += JSON.stringify(sale).length
    })
    expect(count).toBe(6500)
    expect(bytes).toBeGreaterThan(10 * 1024 * 1024)
    expect((await getJson(`${sandbox.link_base}/__sandbox/calls`)).body).toEqual({ token: 1, getTransactions: 1 })
  })
})
