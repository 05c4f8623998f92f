import { SMS_TEST_CODE } from "../../src/sandbox"
import { SeededStore } from "./seed"

/** What a storefront and a shopper's browser do, over real HTTP, step by step. */

type Api = {
  get: (url: string, config?: unknown) => Promise<{ status: number; data: any }>
  post: (url: string, body?: unknown, config?: unknown) => Promise<{ status: number; data: any }>
}

export const PAYING_CARD = {
  cc_holder_name: "Ayşe Yılmaz",
  cc_no: "4508034508034509",
  expiry_month: "12",
  expiry_year: String(new Date().getUTCFullYear() + 3),
  cvv: "000",
}

export const DECLINING_CARD = { ...PAYING_CARD, cc_no: "4000000200000000" }

export function storeHeaders(store: SeededStore) {
  return { headers: { "x-publishable-api-key": store.publishableKey } }
}

export async function createCart(api: Api, store: SeededStore, quantities: number[] = [2, 1]) {
  const items = quantities.map((quantity, index) => ({ variant_id: store.products[index].variantId, quantity })).filter((i) => i.quantity > 0)
  const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
  const { data } = await api.post(
    "/store/carts",
    { region_id: store.regionId, email: "ayse@example.com", items, shipping_address: address, billing_address: address },
    storeHeaders(store)
  )
  return data.cart as { id: string; total: number; currency_code: string }
}

/** `headers`: a signed-in customer's (Medusa then creates their account holder); a guest's by default. */
export async function startPaymentSession(
  api: Api,
  store: SeededStore,
  cartId: string,
  providerId = "pp_sipay_sipay",
  data?: Record<string, unknown>,
  headers: { headers: Record<string, string> } = storeHeaders(store)
) {
  const { data: created } = await api.post("/store/payment-collections", { cart_id: cartId }, headers)
  const collectionId = created.payment_collection.id
  const { data: withSession } = await api.post(
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: providerId, ...(data ? { data } : {}) },
    headers
  )
  const session = withSession.payment_collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === providerId)
  cartOfSession.set(session.id, cartId)
  return { collectionId, session: session as { id: string; data: Record<string, any>; amount: number } }
}

/** The cart each session started here pays: the storefront holds it and proves it to the plugin's store routes. */
const cartOfSession = new Map<string, string>()

export function cartIdOfSession(sessionId: string): string {
  const cartId = cartOfSession.get(sessionId)
  if (!cartId) {
    throw new Error(`no cart known for payment session ${sessionId}: start it with startPaymentSession`)
  }
  return cartId
}

/** A storefront's own card form: the signed fields of a new attempt, for the holder of the session's cart. */
export async function issueThreeDForm(api: Api, store: SeededStore, sessionId: string, body: Record<string, unknown> = { installments_number: 1 }) {
  const { data } = await api
    .post(`/store/sipay/payment-sessions/${sessionId}/3d-form`, { cart_id: cartIdOfSession(sessionId), ...body }, storeHeaders(store))
    .catch(withAnswer)
  return data as { action: string; fields: Record<string, string>; invoice_id: string }
}

/** The hosted card page's signed address, as the store API hands it to the holder of the session's cart. */
export async function hostedPageUrl(api: Api, store: SeededStore, sessionId: string, lang?: "tr" | "en"): Promise<string> {
  const { data } = await api
    .post(`/store/sipay/payment-sessions/${sessionId}/hosted-page`, { cart_id: cartIdOfSession(sessionId), ...(lang ? { lang } : {}) }, storeHeaders(store))
    .catch(withAnswer)
  return data.url as string
}

/** The hosted page's token, as its address carries it: in the fragment (`#token=`), which no request sends. */
export function hostedPageToken(url: string): string {
  const token = new URLSearchParams(new URL(url).hash.replace(/^#/, "")).get("token")
  if (!token) {
    throw new Error(`no token in the hosted page's address ${url.slice(0, 80)}`)
  }
  return token
}

/** One of the routes the hosted page's script calls (`content`, `installments`, `sign`): its address, without the page's fragment. */
export function hostedPageRoute(url: string, route: "content" | "installments" | "sign"): string {
  const page = new URL(url)
  return `${page.origin}${page.pathname}/${route}`
}

/** What the hosted page's script does: a POST to one of its routes with the page's token in the JSON body. */
export function callHostedPage(url: string, route: "content" | "installments" | "sign", body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return fetch(hostedPageRoute(url, route), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ token: hostedPageToken(url), ...body }),
  })
}

/** An error answer rethrown with the server's status and message, so a failing test says why. */
export function withAnswer(error: any): never {
  const answer = error?.response
  if (answer) {
    throw new Error(`${answer.config?.method?.toUpperCase() ?? ""} ${answer.config?.url ?? ""} answered ${answer.status}: ${JSON.stringify(answer.data)}`)
  }
  throw error
}

/** A form (action + fields) read from an HTML page: the bank page, or the gateway's auto-posting result form. */
export function readForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) {
    throw new Error(`no form in page: ${html.slice(0, 200)}`)
  }
  const decode = (text: string) =>
    text.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
  const fields: Record<string, string> = {}
  for (const input of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1]
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? ""
    if (name) {
      fields[decode(name)] = decode(value)
    }
  }
  return { action: decode(form[1]), fields }
}

export async function postForm(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
}

/**
 * The shopper's browser at the gateway: posts the signed fields with the card to paySmart3D, types
 * the SMS code on the bank page (or cancels), and comes back with the gateway's result form,
 * which is returned un-submitted so a test can deliver it, delay it or lose it.
 */
export async function payAtGateway(
  form: { action: string; fields: Record<string, string> },
  card = PAYING_CARD,
  bank: { smsCode?: string; cancel?: boolean } = {}
): Promise<{ action: string; fields: Record<string, string> }> {
  const bankPage = await postForm(form.action, { ...form.fields, ...card })
  const bankHtml = await bankPage.text()
  if (bankPage.status !== 200) {
    throw new Error(`paySmart3D answered ${bankPage.status}: ${bankHtml.slice(0, 300)}`)
  }
  return confirmAtBank(bankHtml, bank)
}

/** The shopper on the bank's page (paySmart3D's, or the one a saved-card payment answers): types the SMS code or cancels; the gateway's result comes back un-submitted. */
export async function confirmAtBank(bankHtml: string, bank: { smsCode?: string; cancel?: boolean } = {}): Promise<{ action: string; fields: Record<string, string> }> {
  const bankForm = readForm(bankHtml)
  const answer = await postForm(bankForm.action, {
    sms_code: bank.cancel ? "" : bank.smsCode ?? SMS_TEST_CODE,
    action: bank.cancel ? "cancel" : "confirm",
  })
  if (answer.status === 303) {
    const location = new URL(answer.headers.get("location")!)
    return { action: `${location.origin}${location.pathname}`, fields: Object.fromEntries(location.searchParams) }
  }
  return readForm(await answer.text())
}

/** The browser delivering the gateway's result to the store; returns where the store sends the shopper. */
export async function returnToStore(result: { action: string; fields: Record<string, string> }): Promise<URL> {
  const response = await postForm(result.action, result.fields)
  if (response.status !== 303) {
    throw new Error(`the store answered the 3D return with ${response.status}: ${(await response.text()).slice(0, 300)}`)
  }
  return new URL(response.headers.get("location")!)
}

export async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 20000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) {
      return value
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
