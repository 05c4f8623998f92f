import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { generateHashKey } from "../../lib/sipay/hash"
import { startSandbox, type MerchantConfig, type SandboxHandle, type StartSandboxOptions } from "../index"

/** Requests here are built from the interface document, never through the plugin's client. */

export const VISA = "4508034508034509"
export const MASTERCARD = "5406675406675403"
export const TROY = "6501700139082826"
export const INSUFFICIENT = "4000000200000000"
export const FAILS_3D = "5355760000000009"
export const POS_UNDEFINED = "4090700000000008"
export const BLOCKED = "5456160000000000"
export const AGRICULTURAL = "9792090000000004"
export const SMS_CODE = "283126"

export const FUTURE_YEAR = String(new Date().getUTCFullYear() + 3)

export function merchantConfig(overrides: Partial<MerchantConfig> = {}): MerchantConfig {
  return {
    merchant_id: 18309,
    merchant_key: "$2y$10$HmRgYosneqcwHj.UH7upGuyCZqpQ1ITgSMj9Vvxn.t6f.Vdf2SQFO",
    app_id: "6d4a7e9374a76c15260fcc75e315b0b9",
    app_secret: "b46a67571aa1e7ef5641dc3fa6f1712a",
    sale_webhooks: {},
    recurring_webhooks: { rec: "http://127.0.0.1:9/recurring" },
    ...overrides,
  }
}

export async function start(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ port: 0, testControls: true, merchants: [merchantConfig()], webhookRetryDelaysMs: [50, 100], ...options })
}

export function invoiceId(prefix = "inv"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`
}

export async function postJson(url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url)
  return { status: response.status, body: await response.json() }
}

/** A browser form post; redirects are not followed so the test sees them. */
export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
}

export async function tokenFor(sandbox: SandboxHandle, merchant = sandbox.merchant): Promise<string> {
  const { body } = await postJson(`${sandbox.base_url}/api/token`, { app_id: merchant.app_id, app_secret: merchant.app_secret })
  return body.data.token
}

type Merchant = { merchant_key: string; app_secret: string }

/** Card payment fields of the interface's table, hash_key over total|installments_number|currency_code|merchant_key|invoice_id. */
export function paymentFields(merchant: Merchant, overrides: Record<string, unknown> = {}): Record<string, any> {
  const base: Record<string, any> = {
    cc_holder_name: "Ayşe Yılmaz",
    cc_no: VISA,
    expiry_month: "12",
    expiry_year: FUTURE_YEAR,
    cvv: "000",
    currency_code: "TRY",
    installments_number: 1,
    invoice_id: invoiceId(),
    invoice_description: "Order 1001",
    name: "Ayşe",
    surname: "Yılmaz",
    total: "150.75",
    merchant_key: merchant.merchant_key,
    items: [{ name: "Mug", price: "50.25", quantity: 3, description: "Blue mug" }],
    ...overrides,
  }
  if (!("hash_key" in overrides)) {
    base.hash_key = generateHashKey(
      [String(base.total), String(base.installments_number), String(base.currency_code), String(base.merchant_key), String(base.invoice_id)],
      merchant.app_secret
    )
  }
  return base
}

/** The same fields as a browser form: every value a string, items JSON-encoded. */
export function threeDForm(merchant: Merchant, overrides: Record<string, unknown> = {}): Record<string, string> {
  const fields = paymentFields(merchant, { cancel_url: "http://shop.test/cancel", return_url: "http://shop.test/return", ...overrides })
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]))
}

/** The form of a page: its action and named inputs. */
export function readForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? ""
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[unescape(match[1])] = unescape(match[2])
  return { action: unescape(action), fields }
}

function unescape(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
}

export type Receiver = { url: string; received: Array<Record<string, string>>; status: number; close(): Promise<void>; waitFor(count: number, ms?: number): Promise<void> }

/** A merchant's webhook endpoint (node:http) recording each form post. */
export async function startReceiver(status = 200): Promise<Receiver> {
  const received: Array<Record<string, string>> = []
  const receiver: Receiver = {
    url: "",
    received,
    status,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections() }),
    waitFor: async (count, ms = 3000) => {
      const until = Date.now() + ms
      while (received.length < count && Date.now() < until) await sleep(20)
      if (received.length < count) throw new Error(`expected ${count} webhooks, got ${received.length}`)
    },
  }
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = ""
    for await (const chunk of req) raw += chunk
    received.push(Object.fromEntries(new URLSearchParams(raw)))
    res.writeHead(receiver.status).end("OK")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/sale`
  return receiver
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** checkstatus request: hash_key over invoice_id|merchant_key. */
export function checkstatusBody(merchant: Merchant, invoice: string, extra: Record<string, unknown> = {}) {
  return { merchant_key: merchant.merchant_key, invoice_id: invoice, hash_key: generateHashKey([invoice, merchant.merchant_key], merchant.app_secret), ...extra }
}

/** Moves the sandbox clock forward (test controls); time-driven work runs at once. */
export async function advanceClock(sandbox: SandboxHandle, seconds: number): Promise<string> {
  return (await postJson(`${sandbox.link_base}/__sandbox/clock`, { advance_seconds: seconds })).body.now
}

/** The sandbox's calendar day in Istanbul (UTC+3), as getTransactions dates sales. */
export async function istanbulToday(sandbox: SandboxHandle): Promise<string> {
  const { body } = await getJson(`${sandbox.link_base}/__sandbox/clock`)
  return new Date(Date.parse(body.now) + 3 * 3600 * 1000).toISOString().slice(0, 10)
}

export const TRANSACTION_FILTERS = ["date", "invoiceid", "currency_id", "paymentmethodid", "minamount", "maxamount", "transactionState"] as const

/** getTransactions body: unused filters as empty strings, hash over the filters in order keyed with the merchant_key. */
export function transactionsBody(merchantKey: string, filters: Partial<Record<(typeof TRANSACTION_FILTERS)[number], string>>) {
  const values = Object.fromEntries(TRANSACTION_FILTERS.map((name) => [name, filters[name] ?? ""]))
  return { merchant_key: merchantKey, hash_key: generateHashKey(TRANSACTION_FILTERS.map((name) => values[name]), merchantKey), ...values }
}

/** Pays a 3D form through the bank page with the test SMS code; answers the redirect's Location. */
export async function payThroughBankPage(page: Response, smsCode = SMS_CODE): Promise<string> {
  const html = await page.text()
  const response = await postForm(readForm(html).action, { sms_code: smsCode, action: "confirm" })
  return response.headers.get("location") ?? ""
}

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])

/** A date n days after the sandbox's Istanbul today. */
export function daysAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** dpl/create's fields of the interface's table; `product_photo: null` leaves the file out. */
export function linkForm(fields: Record<string, string | null>, photo: Blob | null = new Blob([PNG], { type: "image/png" })): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value)
  if (photo) form.append("product_photo", photo, "mug.png")
  return form
}

/** A multipart post with bearer and Accept, as the interface's payment link operations want. */
export async function postMultipart(url: string, form: FormData, token: string, headers: Record<string, string> = { accept: "application/json" }) {
  const response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}`, ...headers }, body: form })
  return { status: response.status, body: await response.json() }
}

/** confirmPayment request: hash_key over merchant_key|invoice_id|status. */
export function confirmBody(merchant: { merchant_key: string; app_secret: string }, invoice: string, status: "1" | "2", total?: string) {
  return { invoice_id: invoice, merchant_key: merchant.merchant_key, status, total, hash_key: generateHashKey([merchant.merchant_key, invoice, status], merchant.app_secret) }
}

/** refund request: hash_key over amount|invoice_id|merchant_key. */
export function refundBody(merchant: { merchant_key: string; app_id: string; app_secret: string }, invoice: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    invoice_id: invoice, amount, merchant_key: merchant.merchant_key, app_id: merchant.app_id, app_secret: merchant.app_secret,
    hash_key: generateHashKey([amount, invoice, merchant.merchant_key], merchant.app_secret), ...extra,
  }
}
