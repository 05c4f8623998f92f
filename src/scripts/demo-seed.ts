import { writeFileSync } from "node:fs"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createUsersWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  updateRegionsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { DEFAULT_SETUP_ARGS } from "../setup/args"
import { ensureShipping, Plan } from "../setup/region-setup"
import { publishedProductInput, SIPAY_PROVIDER_IDS } from "./catalog"

/**
 * The demo store, seeded by `npm run demo` (`medusa exec ./src/scripts/demo-seed.ts`): a store in
 * TRY, a Turkish region paying through both Sipay providers, products, a publishable key and an
 * admin user. Idempotent: what exists is found by name and kept. Reads DEMO_ADMIN_EMAIL,
 * DEMO_ADMIN_PASSWORD; writes what a storefront needs as JSON to DEMO_SEED_OUTPUT.
 */

const STORE_NAME = "Sipay Demo Store"
const SALES_CHANNEL_NAME = "Sipay Demo Storefront"
const API_KEY_TITLE = "Sipay Demo Storefront"
const REGION_NAME = "Türkiye"

export const DEMO_CATALOG = [
  { handle: "kahve-fincani", title: "Kahve Fincanı / Coffee Cup", description: "El yapımı seramik fincan. Handmade ceramic cup.", price: 149.9 },
  { handle: "zeytinyagi-1l", title: "Zeytinyağı 1L / Olive Oil 1L", description: "Ege'den soğuk sıkım. Cold-pressed from the Aegean.", price: 420 },
  { handle: "lokum-kutusu", title: "Lokum Kutusu / Turkish Delight Box", description: "Güllü ve fıstıklı. Rose and pistachio.", price: 275.5 },
  { handle: "cay-bardagi-seti", title: "Çay Bardağı Seti / Tea Glass Set", description: "6 ince belli bardak. Six tulip glasses.", price: 329 },
  { handle: "pestemal", title: "Peştemal / Hammam Towel", description: "Pamuk, 90×170 cm. Cotton.", price: 1250 },
]

export default async function seedDemoStore({ container }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const storeModule = container.resolve(Modules.STORE)
  const salesChannelModule = container.resolve(Modules.SALES_CHANNEL)
  const apiKeyModule = container.resolve(Modules.API_KEY)
  const regionModule = container.resolve(Modules.REGION)
  const productModule = container.resolve(Modules.PRODUCT)
  const userModule = container.resolve(Modules.USER)
  const authModule = container.resolve(Modules.AUTH)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)

  let [salesChannel] = await salesChannelModule.listSalesChannels({ name: SALES_CHANNEL_NAME })
  if (!salesChannel) {
    const { result } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: SALES_CHANNEL_NAME }] } })
    salesChannel = result[0]
  }

  // Medusa creates the default store when the app loads.
  const [store] = await storeModule.listStores()
  if (!store) {
    throw new Error("no store found: Medusa creates one on boot; run `npx medusa db:migrate` first")
  }
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: STORE_NAME,
        supported_currencies: [{ currency_code: "try", is_default: true }],
        default_sales_channel_id: salesChannel.id,
      },
    },
  })

  let [apiKey] = await apiKeyModule.listApiKeys({ title: API_KEY_TITLE, type: "publishable", revoked_at: null } as never)
  if (!apiKey) {
    const { result } = await createApiKeysWorkflow(container).run({
      input: { api_keys: [{ title: API_KEY_TITLE, type: "publishable", created_by: "" }] },
    })
    apiKey = result[0]
  }
  const { data: keyLinks } = await query.graph({ entity: "api_key", fields: ["id", "sales_channels.id"], filters: { id: apiKey.id } })
  const linked = ((keyLinks[0] as { sales_channels?: { id: string }[] })?.sales_channels ?? []).some((channel) => channel?.id === salesChannel.id)
  if (!linked) {
    await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKey.id, add: [salesChannel.id] } })
  }

  let [region] = await regionModule.listRegions({ name: REGION_NAME })
  if (!region) {
    const { result } = await createRegionsWorkflow(container).run({
      input: {
        regions: [{ name: REGION_NAME, currency_code: "try", countries: ["tr"], payment_providers: [...SIPAY_PROVIDER_IDS], automatic_taxes: false }],
      },
    })
    region = result[0]
  } else {
    await updateRegionsWorkflow(container).run({ input: { selector: { id: region.id }, update: { payment_providers: [...SIPAY_PROVIDER_IDS] } } })
  }

  const existing = await productModule.listProducts({ handle: DEMO_CATALOG.map((product) => product.handle) })
  const missing = DEMO_CATALOG.filter((product) => !existing.some((found) => found.handle === product.handle))
  if (missing.length) {
    await createProductsWorkflow(container).run({
      input: {
        products: missing.map((product) => publishedProductInput(product, "try", salesChannel.id)),
      },
    })
  }

  // A stock location with a shipping option for Türkiye (as `sipay-setup --apply` makes), so a real
  // storefront's delivery step (Medusa's Next.js storefront) has one to offer. Kept when it exists.
  await ensureShipping(container, new Plan(true), { ...DEFAULT_SETUP_ARGS, apply: true, shippingPrice: 49.9 })

  const email = process.env.DEMO_ADMIN_EMAIL || "admin@medusa-sipay.test"
  const password = process.env.DEMO_ADMIN_PASSWORD
  if (!password) {
    throw new Error("DEMO_ADMIN_PASSWORD is required")
  }
  await ensureAdminUser({ userModule, authModule, email, password, container })

  const seeded = {
    region_id: region.id,
    publishable_key: apiKey.token,
    sales_channel_id: salesChannel.id,
    products: DEMO_CATALOG.length,
    created_products: missing.length,
  }
  if (process.env.DEMO_SEED_OUTPUT) {
    writeFileSync(process.env.DEMO_SEED_OUTPUT, JSON.stringify(seeded, null, 2))
  }
  logger.info(`Demo store ready: region ${region.id}, ${missing.length} product(s) added`)
}

/** The admin user with this password: created once; on later runs its password is set again (the demo prints it). */
async function ensureAdminUser({ userModule, authModule, email, password, container }: {
  userModule: any
  authModule: any
  email: string
  password: string
  container: ExecArgs["container"]
}) {
  let [user] = await userModule.listUsers({ email })
  if (!user) {
    const { result } = await createUsersWorkflow(container).run({ input: { users: [{ email }] } })
    user = result[0]
  }
  const identities = await authModule.listProviderIdentities({ entity_id: email, provider: "emailpass" })
  if (identities.length === 0) {
    const { authIdentity, error } = await authModule.register("emailpass", { body: { email, password } })
    if (error) {
      throw new Error(`admin user: ${error}`)
    }
    await authModule.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user.id } })
  } else {
    const { success, error } = await authModule.updateProvider("emailpass", { entity_id: email, password })
    if (!success) {
      throw new Error(`admin user: ${error}`)
    }
  }
}
