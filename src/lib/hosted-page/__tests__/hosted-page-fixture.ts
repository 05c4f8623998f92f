import { randomBytes } from "node:crypto"
import { createServer, IncomingMessage, Server, ServerResponse } from "node:http"
import { AddressInfo } from "node:net"
import { hostedPageHeaders } from "../headers"
import { pickLocale } from "../locale"
import { renderHostedPageContent, renderHostedPageShell } from "../render"

export const SESSION_ID = "payses_TEST01"
export const PAGE_PATH = `/sipay/checkout/${SESSION_ID}`
/** The page's token, as the store API puts it in the address's fragment. */
export const PAGE_TOKEN = "fixture1.token-in-the-fragment-only-never-in-a-request-line"

export type RecordedRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: string }

/** Options from the test installments endpoint, chosen by BIN. */
const INSTALLMENTS_BY_BIN: Record<string, unknown> = {
  "450803": {
    installments: [
      { installments_number: 1 },
      { installments_number: 2, amount_to_be_paid: "1269.90", label: "2 Installments", card_program: null },
      { installments_number: 3, amount_to_be_paid: "1289.90", label: "3 Installments", card_program: "Bonus" },
      { installments_number: 6, amount_to_be_paid: "1319.90" },
      { installments_number: 9, amount_to_be_paid: "1349.90" },
    ],
    agricultural: null,
  },
  "979209": {
    installments: [{ installments_number: 1 }],
    agricultural: { maturity_periods: [30, 60, 90], payment_frequencies: [1, 3] },
  },
}

export type HostedPageFixture = {
  storeOrigin: string
  gatewayOrigin: string
  /** The page's address as the store API hands it out (token in the fragment); `token: null` leaves it out. */
  pageUrl(lang?: "tr" | "en", token?: string | null): string
  /** Every request the store server saw (page, installments, sign, anything else). */
  storeRequests: RecordedRequest[]
  signRequests: RecordedRequest[]
  gatewayPosts: RecordedRequest[]
  /** The fields the sign endpoint handed out, per call. */
  signedFields: Record<string, string>[]
  /** Sign answers 409 with a message this many times before succeeding. */
  signFailures: number
  signDelayMs: number
  close(): Promise<void>
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" })
  response.end(JSON.stringify(body))
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<Server> {
  const server = createServer((req, res) => {
    handler(req, res).catch((error) => {
      res.writeHead(500)
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return server
}

const originOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

/** A store server that serves the hosted page with its headers, and a gateway on another origin. */
export async function startHostedPageFixture(): Promise<HostedPageFixture> {
  const fixture = {
    storeRequests: [],
    signRequests: [],
    gatewayPosts: [],
    signedFields: [],
    signFailures: 0,
    signDelayMs: 0,
  } as unknown as HostedPageFixture

  const gateway = await listen(async (req, res) => {
    const body = await readBody(req)
    if (req.method === "POST" && req.url === "/ccpayment/api/paySmart3D") {
      fixture.gatewayPosts.push({ method: req.method, url: req.url, headers: req.headers, body })
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      res.end(`<!doctype html><html lang="en"><title>Gateway</title><main><h1>Gateway received the form</h1></main></html>`)
      return
    }
    res.writeHead(req.url === "/favicon.ico" ? 204 : 404)
    res.end()
  })
  const gatewayOrigin = originOf(gateway)

  const store = await listen(async (req, res) => {
    const body = await readBody(req)
    const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body }
    fixture.storeRequests.push(recorded)
    const url = new URL(req.url ?? "/", storeOrigin)

    if (req.method === "GET" && url.pathname === PAGE_PATH) {
      const nonce = randomBytes(16).toString("base64")
      const locale = pickLocale(url.searchParams.get("lang") ?? undefined, req.headers["accept-language"])
      const html = renderHostedPageShell({ locale, nonce, contentUrl: `${PAGE_PATH}/content` })
      res.writeHead(200, hostedPageHeaders({ nonce, gatewayOrigin, frameAncestors: ["https://shop.example"] }))
      res.end(html)
      return
    }
    // As the store's routes: the token in the JSON body, or the answer of an unknown session.
    const sent = req.method === "POST" && /json/.test(String(req.headers["content-type"])) ? JSON.parse(body || "{}") : {}
    const tokenRoutes = [`${PAGE_PATH}/content`, `${PAGE_PATH}/installments`, `${PAGE_PATH}/sign`]
    if (tokenRoutes.includes(url.pathname) && (req.method !== "POST" || sent.token !== PAGE_TOKEN)) {
      return json(res, 404, { message: "Payment session not found" })
    }
    if (url.pathname === `${PAGE_PATH}/content`) {
      const locale = pickLocale(typeof sent.lang === "string" ? sent.lang : undefined, req.headers["accept-language"])
      return json(
        res,
        200,
        renderHostedPageContent({
          sessionId: SESSION_ID,
          amount: "1249.90",
          currencyCode: "TRY",
          locale,
          storeName: "Anadolu Çarşı <Test>",
          signUrl: `${PAGE_PATH}/sign`,
          installmentsUrl: `${PAGE_PATH}/installments`,
          cancelUrl: `${storeOrigin}/cart`,
          maxInstallments: 6,
        })
      )
    }
    if (url.pathname === `${PAGE_PATH}/installments`) {
      const options = INSTALLMENTS_BY_BIN[String(sent.bin ?? "")]
      return options ? json(res, 200, options) : json(res, 502, { message: "getpos failed" })
    }
    if (url.pathname === `${PAGE_PATH}/sign`) {
      fixture.signRequests.push(recorded)
      await new Promise((resolve) => setTimeout(resolve, fixture.signDelayMs))
      if (fixture.signFailures > 0) {
        fixture.signFailures--
        return json(res, 409, { message: "Sepetiniz değişti; lütfen tekrar deneyin." })
      }
      const choice = sent
      const fields: Record<string, string> = {
        invoice_id: `${SESSION_ID}_${fixture.signRequests.length}`,
        invoice_description: "Sipariş ödemesi",
        total: "1249.90",
        currency_code: "TRY",
        installments_number: String(choice.installments_number),
        // As the sign route answers: no shopper data (the page takes name and surname from the holder's name).
        merchant_key: "$2y$10$merchant.key/with+chars==",
        items: JSON.stringify([{ name: `Çay bardağı <6'lı> & "tabak"`, price: 1249.9, quantity: 1, description: "" }]),
        return_url: `${storeOrigin}/sipay/3d/return`,
        cancel_url: `${storeOrigin}/sipay/3d/cancel`,
        hash_key: "a1b2c3:d4e5f6/g7h8+i9==",
      }
      if (choice.maturity_period !== undefined) {
        fields.maturity_period = String(choice.maturity_period)
        fields.payment_frequency = String(choice.payment_frequency)
      }
      fixture.signedFields.push(fields)
      return json(res, 200, { action: `${gatewayOrigin}/ccpayment/api/paySmart3D`, fields })
    }
    if (url.pathname === "/cart") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      res.end(`<!doctype html><html lang="en"><title>Cart</title><main><h1>Cart</h1></main></html>`)
      return
    }
    res.writeHead(url.pathname === "/favicon.ico" ? 204 : 404)
    res.end()
  })
  const storeOrigin = originOf(store)

  return Object.assign(fixture, {
    storeOrigin,
    gatewayOrigin,
    pageUrl: (lang?: "tr" | "en", token: string | null = PAGE_TOKEN) =>
      `${storeOrigin}${PAGE_PATH}${lang ? `?lang=${lang}` : ""}${token === null ? "" : `#token=${encodeURIComponent(token)}`}`,
    close: async () => {
      await Promise.all([store, gateway].map((server) => new Promise((resolve) => server.close(resolve))))
    },
  })
}

/** The gateway's published test cards (Luhn-valid), by what the test installments endpoint does with their BIN. */
export const CARDS = {
  withInstallments: "4508034508034509",
  agricultural: "9792090000000004",
  lookupFails: "4000000200000000",
  badLuhn: "4508034508034508",
}
