import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createLocationFulfillmentSetWorkflow,
  createRegionsWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateRegionsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import { setupArgsFromEnv, type SetupArgs } from "./args"

/**
 * Run by `npx sipay-setup` through `medusa exec`: makes a Turkish region ready to take Sipay
 * payments, creating only what is missing (TRY on the store, a region for TR with the Sipay
 * providers, a TR tax region, a stock location with a shipping option reaching TR). Without
 * `apply` it only reports. It never touches a price: products without a TRY price are listed.
 */

const CURRENCY = "try"
const COUNTRY = "tr"
const REGION_NAME = "Türkiye"
const SHIPPING_OPTION_NAME = "Kargo (TR)"
const MANUAL_FULFILLMENT = "manual_manual"

type Step = { done: string; todo: string }

export class Plan {
  readonly steps: Step[] = []
  readonly notes: string[] = []
  constructor(readonly apply: boolean) {}

  /** Records a missing piece; runs `make` only when applying. */
  async need<T>(todo: string, done: string, make: () => Promise<T>): Promise<T | undefined> {
    this.steps.push({ todo, done })
    return this.apply ? make() : undefined
  }
}

export default async function sipaySetup({ container }: ExecArgs) {
  const args = setupArgsFromEnv()
  const plan = new Plan(args.apply)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)

  await ensureStoreCurrency(container, plan)
  const providers = await sipayProviders(container)
  const regionId = await ensureRegion(container, plan, providers)
  await ensureTaxRegion(container, plan, args)
  await ensureShipping(container, plan, args)
  const unpriced = await productsWithoutTryPrice(query)

  print(plan, args, regionId, unpriced)
}

async function ensureStoreCurrency(container: ExecArgs["container"], plan: Plan) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: stores } = await query.graph({ entity: "store", fields: ["id", "name", "default_sales_channel_id", "supported_currencies.*"] })
  const store = stores[0] as any
  if (!store) {
    throw new Error("no store found: run `npx medusa db:migrate` first (Medusa creates the store)")
  }
  const currencies = (store.supported_currencies ?? []) as { currency_code: string; is_default?: boolean; is_tax_inclusive?: boolean }[]
  if (currencies.some((currency) => currency.currency_code === CURRENCY)) {
    return
  }
  await plan.need("add TRY to the store's currencies", "added TRY to the store's currencies", () =>
    updateStoresWorkflow(container).run({
      input: {
        selector: { id: store.id },
        update: {
          supported_currencies: [
            ...currencies.map(({ currency_code, is_default, is_tax_inclusive }) => ({ currency_code, is_default, is_tax_inclusive })),
            { currency_code: CURRENCY, is_default: currencies.length === 0 },
          ],
        },
      } as any,
    })
  )
}

/** The 3D provider always; the direct (2D) one only when the options enable it (PCI scope). */
async function sipayProviders(container: ExecArgs["container"]): Promise<{ wanted: string[]; unwanted: string[] }> {
  const paymentModule = container.resolve(Modules.PAYMENT) as any
  const ids = ((await paymentModule.listPaymentProviders({})) as { id: string }[]).map((provider) => provider.id)
  const threeD = ids.find((id) => id.startsWith("pp_sipay_"))
  const direct = ids.find((id) => id.startsWith("pp_sipay-2d_"))
  if (!threeD) {
    throw new Error(
      `the Sipay payment provider is not registered (found: ${ids.join(", ") || "none"}): add it to medusa-config.ts as README's install section shows`
    )
  }
  let directEnabled = false
  try {
    directEnabled = (container.resolve("sipay") as any).getOptions?.()?.enableDirectPayment === true
  } catch {
    // The plugin entry is missing: its routes would not load either; the region still gets 3D.
  }
  const wanted = directEnabled && direct ? [threeD, direct] : [threeD]
  return { wanted, unwanted: !directEnabled && direct ? [direct] : [] }
}

async function ensureRegion(container: ExecArgs["container"], plan: Plan, providers: { wanted: string[]; unwanted: string[] }) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: regions } = await query.graph({
    entity: "region",
    fields: ["id", "name", "currency_code", "countries.iso_2", "payment_providers.id"],
  })
  const region = (regions as any[]).find((candidate) => (candidate.countries ?? []).some((country: any) => country?.iso_2 === COUNTRY))
  if (!region) {
    const created = await plan.need(
      `create the region "${REGION_NAME}" (TRY, country TR, providers ${providers.wanted.join(", ")})`,
      `created the region "${REGION_NAME}" (TRY, country TR, providers ${providers.wanted.join(", ")})`,
      () =>
        createRegionsWorkflow(container).run({
          input: {
            regions: [{ name: REGION_NAME, currency_code: CURRENCY, countries: [COUNTRY], payment_providers: providers.wanted, automatic_taxes: true }],
          },
        })
    )
    return (created as any)?.result?.[0]?.id as string | undefined
  }
  if (region.currency_code !== CURRENCY) {
    plan.notes.push(
      `Türkiye belongs to the region "${region.name}" in ${String(region.currency_code).toUpperCase()}, not TRY: left as it is. ` +
        `Move TR to a TRY region in the admin (Settings → Regions) to take payments in lira.`
    )
    return region.id as string
  }
  const present = ((region.payment_providers ?? []) as { id: string }[]).filter(Boolean).map((provider) => provider.id)
  const missing = providers.wanted.filter((id) => !present.includes(id))
  if (missing.length) {
    await plan.need(
      `add ${missing.join(", ")} to the region "${region.name}"`,
      `added ${missing.join(", ")} to the region "${region.name}"`,
      () => updateRegionsWorkflow(container).run({ input: { selector: { id: region.id }, update: { payment_providers: [...present, ...missing] } } })
    )
  }
  for (const id of providers.unwanted.filter((unwanted) => present.includes(unwanted))) {
    plan.notes.push(
      `The region "${region.name}" lists ${id} while direct payment is off (option "enableDirectPayment"): storefronts are offered a provider that refuses. Remove it in Settings → Regions, or enable the option.`
    )
  }
  return region.id as string
}

async function ensureTaxRegion(container: ExecArgs["container"], plan: Plan, args: SetupArgs) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: taxRegions } = await query.graph({ entity: "tax_region", fields: ["id", "country_code", "parent_id"] })
  if ((taxRegions as any[]).some((taxRegion) => taxRegion.country_code === COUNTRY && !taxRegion.parent_id)) {
    return
  }
  const taxModule = container.resolve(Modules.TAX) as any
  const taxProviders = typeof taxModule.listTaxProviders === "function" ? ((await taxModule.listTaxProviders({})) as { id: string }[]) : []
  const providerId = taxProviders.find((provider) => provider.id === "tp_system")?.id ?? taxProviders[0]?.id
  await plan.need(`create a tax region for TR (KDV ${args.taxRate} %)`, `created a tax region for TR (KDV ${args.taxRate} %)`, () =>
    createTaxRegionsWorkflow(container).run({
      input: [{ country_code: COUNTRY, ...(providerId ? { provider_id: providerId } : {}), default_tax_rate: { rate: args.taxRate, name: "KDV", code: "KDV" } }] as any,
    })
  )
}

type LocationRow = {
  id: string
  name: string
  sales_channels?: { id: string }[]
  fulfillment_providers?: { id: string }[]
  fulfillment_sets?: { id: string; type: string; service_zones?: { id: string; name: string; geo_zones?: { country_code?: string }[] }[] }[]
}

/** A stock location serving the default sales channel with a shipping option for TR in TRY (also the demo seed's). */
export async function ensureShipping(container: ExecArgs["container"], plan: Plan, args: SetupArgs) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: locations } = (await query.graph({
    entity: "stock_location",
    fields: [
      "id",
      "name",
      "sales_channels.id",
      "fulfillment_providers.id",
      "fulfillment_sets.id",
      "fulfillment_sets.type",
      "fulfillment_sets.service_zones.id",
      "fulfillment_sets.service_zones.name",
      "fulfillment_sets.service_zones.geo_zones.country_code",
    ],
  })) as { data: LocationRow[] }

  const reachesTr = (zone: { geo_zones?: { country_code?: string }[] }) => (zone.geo_zones ?? []).some((geo) => geo?.country_code === COUNTRY)
  const trZones = locations.flatMap((location) =>
    (location.fulfillment_sets ?? []).filter((set) => set?.type === "shipping").flatMap((set) => (set.service_zones ?? []).filter(Boolean).filter(reachesTr).map((zone) => ({ zone, location })))
  )
  if (trZones.length) {
    const { data: options } = await query.graph({
      entity: "shipping_option",
      fields: ["id", "service_zone_id", "prices.currency_code"],
      filters: { service_zone_id: trZones.map(({ zone }) => zone.id) },
    })
    if ((options as any[]).some((option) => (option.prices ?? []).some((price: any) => price?.currency_code === CURRENCY))) {
      return
    }
  }

  const { data: stores } = await query.graph({ entity: "store", fields: ["default_sales_channel_id"] })
  const salesChannelId = (stores[0] as any)?.default_sales_channel_id as string | undefined

  let location: LocationRow | undefined = trZones[0]?.location ?? locations[0]
  if (!location) {
    const created = await plan.need(`create the stock location "${REGION_NAME}"`, `created the stock location "${REGION_NAME}"`, () =>
      createStockLocationsWorkflow(container).run({ input: { locations: [{ name: REGION_NAME, address: { address_1: "", country_code: COUNTRY } }] } })
    )
    const id = (created as any)?.result?.[0]?.id
    location = id ? { id, name: REGION_NAME } : undefined
  }
  const locationName = location?.name ?? REGION_NAME

  if (salesChannelId && !(location?.sales_channels ?? []).some((channel) => channel?.id === salesChannelId)) {
    await plan.need(`make the stock location "${locationName}" serve the default sales channel`, `linked the stock location "${locationName}" to the default sales channel`, () =>
      linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location!.id, add: [salesChannelId] } })
    )
  }
  if (!(location?.fulfillment_providers ?? []).some((provider) => provider?.id === MANUAL_FULFILLMENT)) {
    const link = container.resolve(ContainerRegistrationKeys.LINK) as any
    await plan.need(`let the stock location "${locationName}" ship with the manual fulfillment provider`, `linked the manual fulfillment provider to "${locationName}"`, () =>
      link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: location!.id }, [Modules.FULFILLMENT]: { fulfillment_provider_id: MANUAL_FULFILLMENT } })
    )
  }

  let zoneId = trZones.find(({ location: holder }) => holder.id === location?.id)?.zone.id
  if (!zoneId) {
    let setId = (location?.fulfillment_sets ?? []).find((set) => set?.type === "shipping")?.id
    if (!setId) {
      await plan.need(`give "${locationName}" a shipping fulfillment set`, `gave "${locationName}" a shipping fulfillment set`, () =>
        createLocationFulfillmentSetWorkflow(container).run({ input: { location_id: location!.id, fulfillment_set_data: { name: `${locationName} shipping`, type: "shipping" } } })
      )
      if (plan.apply) {
        const { data } = await query.graph({ entity: "stock_location", fields: ["fulfillment_sets.id", "fulfillment_sets.type"], filters: { id: location!.id } })
        setId = ((data[0] as any)?.fulfillment_sets ?? []).find((set: any) => set?.type === "shipping")?.id
      }
    }
    const created = await plan.need(`add a service zone "${REGION_NAME}" (country TR)`, `added the service zone "${REGION_NAME}" (country TR)`, () =>
      createServiceZonesWorkflow(container).run({ input: { data: [{ name: REGION_NAME, fulfillment_set_id: setId!, geo_zones: [{ type: "country", country_code: COUNTRY }] }] } })
    )
    zoneId = (created as any)?.result?.[0]?.id
  }

  const fulfillmentModule = container.resolve(Modules.FULFILLMENT) as any
  let [profile] = (await fulfillmentModule.listShippingProfiles({ type: "default" })) as { id: string }[]
  if (!profile) {
    const created = await plan.need(`create a default shipping profile`, `created a default shipping profile`, () =>
      createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default Shipping Profile", type: "default" }] } })
    )
    profile = (created as any)?.result?.[0]
  }
  const price = args.shippingPrice.toFixed(2)
  await plan.need(
    `create the shipping option "${SHIPPING_OPTION_NAME}" at ${price} TRY (--shipping-price=N; editable in Settings → Locations & Shipping)`,
    `created the shipping option "${SHIPPING_OPTION_NAME}" at ${price} TRY`,
    () =>
      createShippingOptionsWorkflow(container).run({
        input: [
          {
            name: SHIPPING_OPTION_NAME,
            price_type: "flat",
            provider_id: MANUAL_FULFILLMENT,
            service_zone_id: zoneId!,
            shipping_profile_id: profile!.id,
            type: { label: "Standard", description: "Standard shipping in Türkiye", code: "standard-tr" },
            prices: [{ currency_code: CURRENCY, amount: args.shippingPrice }],
            rules: [
              { attribute: "enabled_in_store", value: "true", operator: "eq" },
              { attribute: "is_return", value: "false", operator: "eq" },
            ],
          },
        ],
      })
  )
}

async function productsWithoutTryPrice(query: any): Promise<{ id: string; title: string }[]> {
  const { data: products } = await query.graph({ entity: "product", fields: ["id", "title", "variants.id", "variants.prices.currency_code"] })
  return (products as any[])
    .filter((product) => (product.variants ?? []).some((variant: any) => !(variant?.prices ?? []).some((price: any) => price?.currency_code === CURRENCY)))
    .map((product) => ({ id: product.id, title: product.title }))
}

function print(plan: Plan, args: SetupArgs, regionId: string | undefined, unpriced: { id: string; title: string }[]) {
  const lines: string[] = []
  if (!plan.steps.length) {
    lines.push("Sipay setup: nothing to do, the Turkish region is ready.")
  } else if (args.apply) {
    lines.push("Sipay setup: done.", ...plan.steps.map((step) => `  + ${step.done}`))
  } else {
    lines.push("Sipay setup (dry run, nothing changed). It would:", ...plan.steps.map((step) => `  - ${step.todo}`), "Run `npx sipay-setup --apply` to make these changes.")
  }
  if (regionId) {
    lines.push(`Region: ${regionId}`)
  }
  if (unpriced.length) {
    lines.push(
      `Products without a TRY price (this command never changes prices; set them in the admin, Products → the product → prices): ${unpriced.length}`,
      ...unpriced.map((product) => `  * ${product.title} (${product.id})`)
    )
  }
  lines.push(...plan.notes.map((note) => `Note: ${note}`))
  console.log(lines.join("\n"))
}
