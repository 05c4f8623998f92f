import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import sipayAudit from "../../src/audit/audit-exec"
import { AUDIT_ARGS_ENV, AUDIT_OUT_ENV } from "../../src/audit/args"
import type { AuditReport } from "../../src/lib/audit/types"
import { gatewayDay } from "../../src/lib/sales-report"
import { auditGatewayDay } from "../../src/workflows/audit/audit-day"
import { RECORDED_REFUND_NOTE } from "../../src/workflows/sales-ledger/record-gateway-refund"
import { syncLedger } from "../../src/workflows/sales-ledger/sync-ledger"
import { seedStoreWithAdmin, SeededStore } from "../harness/seed"
import { clearSandboxFaults, useSipayStack } from "../harness/stack"
import { createCart, issueThreeDForm, payAtGateway, returnToStore, startPaymentSession } from "../harness/shopper"
import { captureInPanel, refundInPanel, type World } from "../invariants/world"

jest.setTimeout(300 * 1000)

// The merchant's audit (docs/admin.md "Audit"): a gateway day seeded with every kind of difference, each
// made the way it happens (a shopper, the merchant in the admin and in the gateway's panel, the
// card's bank, the old ledger's refund), shown once; and a sale made at 00:30 Istanbul time on its day.
const stack = useSipayStack()

const DAY_MS = 24 * 3600 * 1000

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let admin: { headers: Record<string, string> }

    beforeEach(async () => {
      ;({ store, admin } = await seedStoreWithAdmin(getContainer(), api))
    })
    afterEach(() => clearSandboxFaults(stack))

    async function sandbox(path: string, body?: unknown) {
      const response = await fetch(`${stack.sandbox.link_base}/__sandbox/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect(response.status).toBeLessThan(300)
      return response.json() as Promise<any>
    }
    const gatewayNow = async () => new Date((await sandbox("clock")).now)

    async function orderOfCart(cartId: string) {
      const { data } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({
        entity: "cart",
        fields: ["order.id", "order.payment_collections.payments.id"],
        filters: { id: cartId },
      })
      const order = (data[0] as any).order as { id: string; payment_collections: { payments: { id: string }[] }[] }
      return { orderId: order.id, paymentId: order.payment_collections[0].payments[0].id }
    }

    /** A shopper's 3D purchase, landed on its order; `tabs` forms of the same session paid (the first one kept). */
    async function purchase(tabs = 1) {
      const cart = await createCart(api, store, [1, 0])
      const { session } = await startPaymentSession(api, store, cart.id)
      const forms = []
      for (let tab = 0; tab < tabs; tab++) forms.push(await issueThreeDForm(api, store, session.id))
      const results = []
      for (const form of forms) results.push(await payAtGateway(form))
      expect((await returnToStore(results[0])).pathname).toMatch(/order_/)
      for (const result of results.slice(1)) expect((await returnToStore(result)).searchParams.get("error")).toBeTruthy()
      return { ...(await orderOfCart(cart.id)), invoices: forms.map((form) => form.invoice_id), total: Number(cart.total).toFixed(2) }
    }

    const setCapture = async (capture: boolean | null) => expect((await api.post("/admin/sipay/settings", { capture }, admin)).status).toBe(200)
    const findings = (report: AuditReport) => report.findings.map((finding) => [finding.kind, finding.invoice_id]).sort()

    it("a day seeded with each kind of difference shows each once, in the function, the admin API, its CSV and the command's script", async () => {
      const day = gatewayDay(await gatewayNow())

      // Two tabs paid; the ledger before the fix booked the extra tab's give-back on the kept payment and refunded it at the gateway (N1).
      const twoTabs = await purchase(2)
      await refundPaymentWorkflow(getContainer()).run({ input: { payment_id: twoTabs.paymentId, amount: twoTabs.total, note: RECORDED_REFUND_NOTE } as never })
      const agreeing = await purchase()
      const givenBackInPanel = await purchase()
      const refundedInPanel = await purchase()
      const refundedInMedusaOnly = await purchase()
      const chargedBack = await purchase()
      const chargedBackLater = await purchase()
      await setCapture(false)
      const capturedInPart = await purchase()
      const reserved = await purchase()
      await setCapture(null)

      // Paid at the bank, the return lost and the sale webhook dropped: the gateway holds the money, the store has no order.
      await sandbox("faults", { operation: "sale_webhook", kind: "drop", times: 1 })
      const lostCart = await createCart(api, store, [0, 1])
      const { session: lostSession } = await startPaymentSession(api, store, lostCart.id)
      const lost = await issueThreeDForm(api, store, lostSession.id)
      await payAtGateway(lost)

      // The card's bank takes a sale back; the ledger's sync records it on its order.
      await sandbox("chargeback", { invoice_id: chargedBack.invoices[0] })
      const synced = await syncLedger(getContainer(), { days: [day] })
      expect(synced.actions.chargebacks).toEqual([expect.objectContaining({ invoice_id: chargedBack.invoices[0], order_id: chargedBack.orderId })])

      // After the sync: refunds in the merchant panel (all of one sale, part of another), a chargeback not synced yet,
      // a refund Medusa shows that the gateway never made (as another integration or a hand-made fix leaves it),
      // and part of a pre-authorization captured in the merchant panel, outside Medusa.
      const world = { stack } as World
      expect((await refundInPanel(world, givenBackInPanel.invoices[0], givenBackInPanel.total)).status_code).toBe(100)
      expect((await refundInPanel(world, refundedInPanel.invoices[0], "50.00")).status_code).toBe(100)
      await sandbox("chargeback", { invoice_id: chargedBackLater.invoices[0] })
      await getContainer().resolve(Modules.PAYMENT).createRefunds({ payment_id: refundedInMedusaOnly.paymentId, amount: 30, note: "recorded by hand" } as never)
      expect((await captureInPanel(world, capturedInPart.invoices[0], "10.00")).status_code).toBe(100)

      // 18 days on: the remaining reservation is 2 days from the gateway's 20-day cancel.
      await sandbox("clock", { advance_seconds: 18 * 86400 })
      const now = await gatewayNow()
      const report = await auditGatewayDay(getContainer(), day, { now, refresh: true })

      expect(findings(report)).toEqual(
        [
          ["old_ledger_refund", twoTabs.invoices[1]],
          ["paid_without_order", lost.invoice_id],
          ["order_money_given_back", givenBackInPanel.invoices[0]],
          ["refund_missing_in_medusa", refundedInPanel.invoices[0]],
          ["refund_missing_at_gateway", refundedInMedusaOnly.invoices[0]],
          ["amounts_differ", capturedInPart.invoices[0]],
          ["chargeback", chargedBack.invoices[0]],
          ["chargeback_not_recorded", chargedBackLater.invoices[0]],
          ["pre_authorization_lapsing", reserved.invoices[0]],
        ].sort()
      )
      const of = (kind: string) => report.findings.find((finding) => finding.kind === kind)!
      expect(of("old_ledger_refund")).toMatchObject({ severity: "difference", order_id: twoTabs.orderId, payment_id: twoTabs.paymentId, amount: twoTabs.total, payment_invoice_id: twoTabs.invoices[0] })
      expect(of("paid_without_order")).toMatchObject({ order_id: null, payment_id: null, amount: Number(lostCart.total).toFixed(2) })
      expect(of("order_money_given_back")).toMatchObject({ order_id: givenBackInPanel.orderId, payment_id: givenBackInPanel.paymentId, amount: givenBackInPanel.total })
      expect(of("refund_missing_in_medusa")).toMatchObject({ order_id: refundedInPanel.orderId, amount: "50.00", gateway_amount: "50.00", medusa_amount: "0.00" })
      expect(of("refund_missing_at_gateway")).toMatchObject({ order_id: refundedInMedusaOnly.orderId, amount: "30.00" })
      expect(of("amounts_differ")).toMatchObject({ order_id: capturedInPart.orderId, gateway_amount: "10.00", medusa_amount: "0.00" })
      expect(of("chargeback")).toMatchObject({ severity: "notice", order_id: chargedBack.orderId })
      expect(of("chargeback_not_recorded")).toMatchObject({ severity: "difference", order_id: chargedBackLater.orderId, recorded_order_id: null })
      expect(of("pre_authorization_lapsing")).toMatchObject({ severity: "notice", order_id: reserved.orderId, days_left: 2 })
      expect(report).toMatchObject({ day, agrees: false, ledger: { pulled_now: true } })
      expect(report.summary).toMatchObject({ sales: 11, chargebacks: 2, differences: 7, notices: 2, settling: 0, kinds: { payment: 9, given_back: 1, attempt: 1 } })
      // The sales that agree: the kept tab (refunded at both ends) and the plain purchase.
      const agreeingLines = report.lines.filter((line) => !line.findings.length).map((line) => line.invoice_id)
      expect(agreeingLines.sort()).toEqual([twoTabs.invoices[0], agreeing.invoices[0]].sort())

      // The admin API serves the same day on the store's clock: the lapse is 18 days away there, and the lost sale is minutes old (being settled).
      const { status, data } = await api.get(`/admin/sipay/audit?date=${day}`, admin)
      expect(status).toBe(200)
      const served = data.audit as AuditReport
      expect(findings(served)).toEqual(findings(report).filter(([kind]) => kind !== "pre_authorization_lapsing" && kind !== "paid_without_order"))
      expect(served.summary).toMatchObject({ settling: 1, differences: 6, notices: 1 })
      expect(served.lines.find((line) => line.invoice_id === lost.invoice_id)).toMatchObject({ settling: true, sale_kind: "attempt" })
      expect(served.ledger.pulled_now).toBe(false)

      // Its CSV: every sale, one row per finding, what to do in Turkish.
      const csv = await api.get(`/admin/sipay/audit/export?date=${day}&lang=tr`, { ...admin, responseType: "text" } as never)
      expect(csv.headers["content-disposition"]).toBe(`attachment; filename="sipay-audit-${day}.csv"`)
      const rows = String(csv.data).replace(/^\uFEFF/, "").trimEnd().split("\r\n")
      expect(rows).toHaveLength(1 + 11)
      const row = rows.find((line) => line.includes(`,${refundedInPanel.invoices[0]},`))!
      expect(row).toContain(",difference,refund_missing_in_medusa,50.00,")
      expect(row).toContain("Ödeme kuruluşu bu satıştan 50,00 TRY iade etti")
      expect(rows.find((line) => line.includes(`,${lost.invoice_id},`))).toContain(",settling,")

      // Bad queries: 400 with the reason.
      for (const [query, message] of [
        ["", "date"],
        [`date=${day}&lang=de`, "lang"],
        ["date=2026-02-30", "is not a calendar day"],
        [`date=${gatewayDay(new Date(Date.now() + 3 * DAY_MS))}`, "after today in Istanbul"],
      ]) {
        const refused = await api.get(`/admin/sipay/audit?${query}`, admin).catch((error: any) => error.response)
        expect({ query, status: refused.status, message: refused.data.message }).toEqual({ query, status: 400, message: expect.stringContaining(message) })
      }

      // It may pull a day from the gateway: not from another site's page (the admin's cookie riding along).
      const crossSite = await api.get(`/admin/sipay/audit?date=${day}`, { headers: { ...admin.headers, origin: "http://evil.example", "sec-fetch-site": "cross-site" } }).catch((error: any) => error.response)
      expect(crossSite.status).toBe(403)

      // The command's script (what `npx sipay-audit` runs through medusa exec): the report written where the command reads it.
      const scratch = mkdtempSync(join(tmpdir(), "sipay-audit-test-"))
      const previous = { args: process.env[AUDIT_ARGS_ENV], out: process.env[AUDIT_OUT_ENV] }
      try {
        process.env[AUDIT_ARGS_ENV] = JSON.stringify({ day, json: true, language: "en", refresh: false })
        process.env[AUDIT_OUT_ENV] = join(scratch, "answer.json")
        await sipayAudit({ container: getContainer(), args: [] } as never)
        const answer = JSON.parse(readFileSync(join(scratch, "answer.json"), "utf8"))
        expect(findings(answer.report)).toEqual(findings(served))
      } finally {
        Object.assign(process.env, previous)
        if (previous.args === undefined) delete process.env[AUDIT_ARGS_ENV]
        if (previous.out === undefined) delete process.env[AUDIT_OUT_ENV]
        rmSync(scratch, { recursive: true, force: true })
      }
    })

    it("a sale made at 00:30 Istanbul time is on that Istanbul day, not on the UTC day before", async () => {
      // The gateway's clock to the next 00:30 in Istanbul (UTC+3: 21:30 UTC the day before).
      const before = await gatewayNow()
      const target = new Date(before.getTime())
      target.setUTCHours(21, 30, 0, 0)
      if (target.getTime() <= before.getTime() + 60_000) target.setTime(target.getTime() + DAY_MS)
      await sandbox("clock", { advance_seconds: Math.ceil((target.getTime() - before.getTime()) / 1000) })
      const sale = await purchase()
      const record = (await sandbox("sales")).find((s: any) => s.invoice_id === sale.invoices[0])
      const madeAt = new Date(record.created_at_ms)
      expect(madeAt.getUTCHours()).toBe(21)
      expect(madeAt.getUTCMinutes()).toBe(30)

      const now = await gatewayNow()
      const istanbulDay = gatewayDay(madeAt)
      const utcDay = madeAt.toISOString().slice(0, 10)
      expect(istanbulDay).not.toBe(utcDay)
      const onItsDay = await auditGatewayDay(getContainer(), istanbulDay, { now, refresh: true })
      expect(onItsDay.lines.filter((line) => line.invoice_id === sale.invoices[0])).toEqual([
        expect.objectContaining({ sale_kind: "payment", order_id: sale.orderId, created_at: madeAt.toISOString(), findings: [] }),
      ])
      expect(onItsDay.agrees).toBe(true)
      const dayBefore = await auditGatewayDay(getContainer(), utcDay, { now, refresh: true })
      expect(dayBefore.lines.map((line) => line.invoice_id)).not.toContain(sale.invoices[0])
    })
  },
})
