/** What the demo seed and the test harness both put in a store: the Sipay providers of a region, and simple products. */

export const SIPAY_PROVIDER_IDS = ["pp_sipay_sipay", "pp_sipay-2d_sipay"] as const

export type CatalogProduct = { title: string; price: number; handle?: string; description?: string; metadata?: Record<string, unknown> }

/** A published product with one untracked variant priced in the store's currency, sold in one sales channel. */
export function publishedProductInput(product: CatalogProduct, currencyCode: string, salesChannelId: string) {
  return {
    title: product.title,
    handle: product.handle,
    description: product.description,
    metadata: product.metadata,
    status: "published" as const,
    options: [{ title: "Default", values: ["Default"] }],
    variants: [
      {
        title: "Default",
        options: { Default: "Default" },
        manage_inventory: false,
        prices: [{ amount: product.price, currency_code: currencyCode }],
      },
    ],
    sales_channels: [{ id: salesChannelId }],
  }
}
