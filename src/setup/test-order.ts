import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createApiKeysWorkflow, linkSalesChannelsToApiKeyWorkflow } from "@medusajs/medusa/core-flows"
import { isLoopbackHost } from "../lib/loopback"
import { SMS_TEST_CODE } from "../sandbox/cards"

/**
 * Run by `npx sipay-setup --test-order` through `medusa exec`: a first test order without a
 * storefront. It reads what a storefront would need from the store (its Turkish region, a
 * publishable key, a product variant priced in TRY), then makes the cart over the running store's
 * own store API, as a storefront does (cart, shipping method, payment collection, a Sipay 3D payment
 * session, the hosted card page's signed address), and prints that address to open in a browser.
 * Each run makes a new cart; nothing else changes, except a publishable key created when the store
 * has none (Medusa's seed makes one; a bare store may not).
 */

const CURRENCY = "try"
const COUNTRY = "tr"
const KEY_TITLE = "Sipay test order"

type Container = ExecArgs["container"]
type Variant = { id: string; title?: string; manage_inventory?: boolean; prices?: { currency_code?: string; amount?: number }[] }
type Product = { id: string; title: string; status?: string; sales_channels?: { id: string }[]; variants?: Variant[] }

export default async function sipayTestOrder({ container }: ExecArgs) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const region = await turkishRegion(query)
  const backend = backendUrl(container)
  const { key, candidates } = await keyAndVariants(container, query)
  if (!candidates.length) {
    throw new Error(
      "no product variant has a TRY price in the publishable key's sales channel: give a product a TRY price in the admin " +
        "(Products → the product → prices; `npx sipay-setup` lists the products without one), then run this again"
    )
  }
  const store = new StoreApi(backend, key.token)
  await store.ping()
  const address = { first_name: "Test", last_name: "Müşteri", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: COUNTRY, postal_code: "34430", phone: "5550000000" }
  const { cart } = await store.call("POST", "/store/carts", {
    region_id: region.id,
    email: "sipay-test-order@example.com",
    shipping_address: address,
    billing_address: address,
  })
  let added: { product: Product; variant: Variant } | undefined
  const refusals: string[] = []
  for (const candidate of candidates.slice(0, 10)) {
    try {
      await store.call("POST", `/store/carts/${cart.id}/line-items`, { variant_id: candidate.variant.id, quantity: 1 })
      added = candidate
      break
    } catch (error) {
      // Out of stock, not in the sales channel's location: the next priced variant.
      refusals.push(`${candidate.product.title}: ${(error as Error).message}`)
    }
  }
  if (!added) {
    throw new Error(`no priced variant could be added to a cart:\n  ${refusals.join("\n  ")}`)
  }
  const { shipping_options: options } = await store.call("GET", `/store/shipping-options?cart_id=${cart.id}`)
  if (!options?.length) {
    throw new Error("the cart has no shipping option for Türkiye: run `npx sipay-setup --apply` first")
  }
  await store.call("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: options[0].id })
  const { payment_collection: collection } = await store.call("POST", "/store/payment-collections", { cart_id: cart.id })
  const { payment_collection: withSession } = await store.call("POST", `/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: "pp_sipay_sipay" })
  const session = (withSession.payment_sessions ?? []).find((candidate: { provider_id: string }) => candidate.provider_id === "pp_sipay_sipay")
  if (!session) {
    throw new Error(`the region "${region.name}" does not offer pp_sipay_sipay: run \`npx sipay-setup --apply\` first`)
  }
  const { url, expires_at } = await store.call("POST", `/store/sipay/payment-sessions/${session.id}/hosted-page`, { cart_id: cart.id, lang: "tr" })
  const { cart: priced } = await store.call("GET", `/store/carts/${cart.id}?fields=id,total,currency_code`)

  const sandbox = isSandbox(container)
  console.log(
    [
      `Sipay test order: cart ${cart.id} in the region "${region.name}": 1 × ${added.product.title}` +
        `${added.variant.title && added.variant.title !== "Default" ? ` (${added.variant.title})` : ""}, ` +
        `${Number(priced.total).toFixed(2)} ${String(priced.currency_code).toUpperCase()} with tax and shipping.`,
      sandbox
        ? `Open this link in a browser and pay with a test card the sandbox printed (any future expiry, CVV 000; SMS code ${SMS_TEST_CODE} on the bank page):`
        : "Open this link in a browser and pay with one of your gateway's test cards:",
      `  ${url}`,
      `The link is valid until ${expires_at}; each run makes a new cart. After paying, the browser goes to the success URL`,
      "(the storefront's order page: nothing answers there until the store has a storefront); the order is then in the admin, Orders.",
    ].join("\n")
  )
}

async function turkishRegion(query: any): Promise<{ id: string; name: string }> {
  const { data: regions } = await query.graph({ entity: "region", fields: ["id", "name", "currency_code", "countries.iso_2"] })
  const region = (regions as any[]).find(
    (candidate) => candidate.currency_code === CURRENCY && (candidate.countries ?? []).some((country: any) => country?.iso_2 === COUNTRY)
  )
  if (!region) {
    throw new Error("the store has no TRY region for Türkiye: run `npx sipay-setup --apply` first")
  }
  return region
}

function backendUrl(container: Container): string {
  const options = (container.resolve("sipay") as { getOptions(): { backendUrl?: string } }).getOptions()
  if (!options.backendUrl) {
    throw new Error('option "backendUrl" (MEDUSA_BACKEND_URL) is not set: the test order is made over the store\'s own address')
  }
  return options.backendUrl.replace(/\/+$/, "")
}

function isSandbox(container: Container): boolean {
  const options = (container.resolve("sipay") as { getOptions(): { brand?: string; baseUrl?: string } }).getOptions()
  if (options.brand === "sandbox") return true
  try {
    return !!options.baseUrl && isLoopbackHost(new URL(options.baseUrl).hostname)
  } catch {
    return false
  }
}

/**
 * A publishable key that is not revoked, with the TRY-priced variants of its sales channels (the first
 * key that has some); a key is made for the default sales channel when the store has none at all.
 */
async function keyAndVariants(container: Container, query: any): Promise<{ key: { token: string }; candidates: { product: Product; variant: Variant }[] }> {
  const { data: keys } = await query.graph({
    entity: "api_key",
    fields: ["id", "token", "type", "revoked_at", "sales_channels.id"],
    filters: { type: "publishable" },
  })
  const usable = (keys as any[]).filter((key) => !key.revoked_at)
  for (const key of usable) {
    const channels = (key.sales_channels ?? []).filter(Boolean).map((channel: { id: string }) => channel.id)
    const candidates = channels.length ? await pricedVariants(query, channels) : []
    if (candidates.length) {
      return { key, candidates }
    }
  }
  if (usable.length) {
    return { key: usable[0], candidates: [] }
  }
  const { data: stores } = await query.graph({ entity: "store", fields: ["default_sales_channel_id"] })
  const salesChannelId = (stores[0] as any)?.default_sales_channel_id as string | undefined
  if (!salesChannelId) {
    throw new Error("the store has no default sales channel and no publishable key: create a publishable key in the admin (Settings → Publishable API keys)")
  }
  const { result } = await createApiKeysWorkflow(container).run({ input: { api_keys: [{ title: KEY_TITLE, type: "publishable", created_by: "" }] } })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: result[0].id, add: [salesChannelId] } })
  console.log(`Created the publishable key "${KEY_TITLE}" for the default sales channel (the store had none).`)
  return { key: result[0], candidates: await pricedVariants(query, [salesChannelId]) }
}

/** Published products' variants priced in TRY, in one of the key's sales channels; variants without inventory management first. */
async function pricedVariants(query: any, salesChannelIds: string[]): Promise<{ product: Product; variant: Variant }[]> {
  const { data: products } = (await query.graph({
    entity: "product",
    fields: ["id", "title", "status", "sales_channels.id", "variants.id", "variants.title", "variants.manage_inventory", "variants.prices.currency_code", "variants.prices.amount"],
  })) as { data: Product[] }
  const found = products
    .filter((product) => product.status === "published" && (product.sales_channels ?? []).some((channel) => channel && salesChannelIds.includes(channel.id)))
    .flatMap((product) =>
      (product.variants ?? [])
        .filter((variant) => variant && (variant.prices ?? []).some((price) => price?.currency_code === CURRENCY))
        .map((variant) => ({ product, variant }))
    )
  return [...found.filter(({ variant }) => !variant.manage_inventory), ...found.filter(({ variant }) => variant.manage_inventory)]
}

/** The store API of the running server, with the publishable key, as a storefront calls it. */
class StoreApi {
  constructor(readonly baseUrl: string, readonly key: string) {}

  async ping() {
    try {
      await fetch(`${this.baseUrl}/health`)
    } catch {
      throw new Error(`the store does not answer at ${this.baseUrl} (option "backendUrl"): start it (\`npx medusa develop\`), then run this again`)
    }
  }

  async call(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { "x-publishable-api-key": this.key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    if (!response.ok) {
      let message = text.slice(0, 300)
      try {
        message = JSON.parse(text).message ?? message
      } catch {
        // not JSON: the text, cut
      }
      throw new Error(`${method} ${path.split("?")[0]} answered ${response.status}: ${message}`)
    }
    return text ? JSON.parse(text) : {}
  }
}
