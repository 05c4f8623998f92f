import {
  createApiKeysWorkflow,
  createLocationFulfillmentSetWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createUserAccountWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} from "@medusajs/core-flows"
import { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { CatalogProduct, publishedProductInput, SIPAY_PROVIDER_IDS } from "../../src/scripts/catalog"

export { SIPAY_PROVIDER_IDS }

export type SeededStore = {
  regionId: string
  salesChannelId: string
  publishableKey: string
  products: { id: string; variantId: string; title: string; price: number }[]
}

export const DEMO_PRODUCTS = [
  { title: "Kahve Fincanı / Coffee Cup", price: 149.9 },
  { title: "Zeytinyağı 1L / Olive Oil 1L", price: 420 },
  { title: "Lokum Kutusu / Turkish Delight Box", price: 275.5 },
]

/** A store as a shopper meets it: a TRY region paying through both providers, a publishable key, products. */
export async function seedStore(
  container: MedusaContainer,
  options: { currencyCode?: string; products?: NewProduct[] } = {}
): Promise<SeededStore> {
  const currencyCode = options.currencyCode ?? "try"
  const { result: salesChannels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Web" }] },
  })
  const salesChannelId = salesChannels[0].id
  const { result: apiKeys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKeys[0].id, add: [salesChannelId] } })
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: "Türkiye",
          currency_code: currencyCode,
          countries: currencyCode === "try" ? ["tr"] : [],
          payment_providers: [...SIPAY_PROVIDER_IDS],
          automatic_taxes: false,
        },
      ],
    },
  })
  const products = await addProducts(container, { salesChannelId, currencyCode }, options.products ?? DEMO_PRODUCTS)
  return {
    regionId: regions[0].id,
    salesChannelId,
    publishableKey: apiKeys[0].token,
    products,
  }
}

type NewProduct = Pick<CatalogProduct, "title" | "price" | "metadata">

/** Published products with one variant priced in the store's currency, sold in its sales channel. */
export async function addProducts(
  container: MedusaContainer,
  store: { salesChannelId: string; currencyCode?: string },
  products: NewProduct[]
): Promise<SeededStore["products"]> {
  const currencyCode = store.currencyCode ?? "try"
  const { result } = await createProductsWorkflow(container).run({
    input: { products: products.map((product) => publishedProductInput(product, currencyCode, store.salesChannelId)) },
  })
  return result.map((product, index) => ({ id: product.id, variantId: product.variants[0].id, title: product.title, price: products[index].price }))
}

type HttpClient = { post: (url: string, body?: unknown, config?: unknown) => Promise<{ data: any }> }

/** An admin user registered and logged in through the auth API; returns request headers. */
export async function createAdminUser(
  container: MedusaContainer,
  api: HttpClient,
  credentials = { email: "admin@example.com", password: "supersecret-123" }
): Promise<{ headers: Record<string, string> }> {
  const registered = await api.post("/auth/user/emailpass/register", credentials)
  const payload = JSON.parse(Buffer.from(registered.data.token.split(".")[1], "base64url").toString("utf8"))
  await createUserAccountWorkflow(container).run({
    input: { authIdentityId: payload.auth_identity_id, userData: { email: credentials.email } },
  })
  const login = await api.post("/auth/user/emailpass", credentials)
  return { headers: { authorization: `Bearer ${login.data.token}` } }
}

/** A fresh store and a logged-in admin: what each admin-side test starts from. */
export async function seedStoreWithAdmin(
  container: MedusaContainer,
  api: HttpClient
): Promise<{ store: SeededStore; admin: { headers: Record<string, string> } }> {
  const store = await seedStore(container)
  return { store, admin: await createAdminUser(container, api) }
}

export type SeededShipping = { locationId: string; shippingProfileId: string; shippingOptionId: string; returnOptionId: string }

/**
 * Opt-in, for the suites that fulfil and return orders (Medusa's returns need a fulfilled item): a
 * stock location of the store's sales channel with the manual fulfillment provider, a shipping zone
 * for Türkiye, a free shipping option and a free return option, and the store's products in the
 * default shipping profile. Other suites keep their shipping-free carts (and their speed).
 */
export async function seedShipping(container: MedusaContainer, store: SeededStore, currencyCode = "try"): Promise<SeededShipping> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const { result: locations } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Depo İstanbul" }] } })
  const locationId = locations[0].id
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: locationId, add: [store.salesChannelId] } })
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: locationId }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } })
  await createLocationFulfillmentSetWorkflow(container).run({ input: { location_id: locationId, fulfillment_set_data: { name: "Depo İstanbul kargo", type: "shipping" } } })
  const [set] = await fulfillment.listFulfillmentSets({ name: "Depo İstanbul kargo" })
  const zone = await fulfillment.createServiceZones({ fulfillment_set_id: set.id, name: "Türkiye", geo_zones: [{ type: "country", country_code: "tr" }] })
  const [existing] = await fulfillment.listShippingProfiles({ type: "default" })
  const profileId = existing?.id ?? (await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })).result[0].id
  const option = (name: string, code: string, isReturn: boolean) => ({
    name,
    service_zone_id: zone.id,
    shipping_profile_id: profileId,
    provider_id: "manual_manual",
    price_type: "flat" as const,
    type: { label: name, description: name, code },
    prices: [{ currency_code: currencyCode, amount: 0 }],
    rules: [
      { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
      { attribute: "is_return", value: isReturn ? "true" : "false", operator: "eq" as const },
    ],
  })
  const { result: options } = await createShippingOptionsWorkflow(container).run({ input: [option("Kargo", "standard", false), option("İade kargo", "return", true)] })
  await link.create(store.products.map((product) => ({ [Modules.PRODUCT]: { product_id: product.id }, [Modules.FULFILLMENT]: { shipping_profile_id: profileId } })))
  return { locationId, shippingProfileId: profileId, shippingOptionId: options[0].id, returnOptionId: options[1].id }
}
