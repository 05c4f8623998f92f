/**
 * What a store owner does in the admin and a storefront does over the store API, in plain HTTP
 * against a store started from its own folder (no test runner in the store).
 */

export type StoreHttp = { baseUrl: string }

export async function call<T = any>(store: StoreHttp, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const response = await fetch(`${store.baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(options.headers ?? {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  if (!response.ok) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`)
  }
  return (text ? JSON.parse(text) : {}) as T
}

export async function adminLogin(store: StoreHttp, email: string, password: string): Promise<Record<string, string>> {
  const { token } = await call<{ token: string }>(store, "POST", "/auth/user/emailpass", { body: { email, password } })
  return { authorization: `Bearer ${token}` }
}

/** A publishable key for the default sales channel, and a product priced in EUR only (a store's catalog before Türkiye). */
export async function prepareCatalog(store: StoreHttp, admin: Record<string, string>) {
  const { stores } = await call(store, "GET", "/admin/stores", { headers: admin })
  const salesChannelId = stores[0].default_sales_channel_id as string
  const { api_key: key } = await call(store, "POST", "/admin/api-keys", { headers: admin, body: { title: "Storefront", type: "publishable" } })
  await call(store, "POST", `/admin/api-keys/${key.id}/sales-channels`, { headers: admin, body: { add: [salesChannelId] } })
  const { shipping_profiles: profiles } = await call(store, "GET", "/admin/shipping-profiles", { headers: admin })
  const { product } = await call(store, "POST", "/admin/products", {
    headers: admin,
    body: {
      title: "Kahve Fincanı",
      status: "published",
      shipping_profile_id: profiles[0].id,
      options: [{ title: "Default", values: ["Default"] }],
      variants: [{ title: "Default", options: { Default: "Default" }, manage_inventory: false, prices: [{ currency_code: "eur", amount: 12 }] }],
      sales_channels: [{ id: salesChannelId }],
    },
  })
  return { publishableKey: key.token as string, productId: product.id as string, variantId: product.variants[0].id as string }
}

/** The owner gives the product a TRY price in the admin, as sipay-setup tells them to. */
export async function addTryPrice(store: StoreHttp, admin: Record<string, string>, productId: string, variantId: string, amount: number) {
  const { variant } = await call(store, "GET", `/admin/products/${productId}/variants/${variantId}?fields=*prices`, { headers: admin })
  const prices = (variant.prices as { id: string; currency_code: string; amount: number }[]).map(({ id, currency_code, amount: value }) => ({ id, currency_code, amount: value }))
  await call(store, "POST", `/admin/products/${productId}/variants/${variantId}`, { headers: admin, body: { prices: [...prices, { currency_code: "try", amount }] } })
}

export async function variantPrices(store: StoreHttp, admin: Record<string, string>, productId: string, variantId: string) {
  const { variant } = await call(store, "GET", `/admin/products/${productId}/variants/${variantId}?fields=*prices`, { headers: admin })
  return (variant.prices as { currency_code: string; amount: number }[]).map(({ currency_code, amount }) => ({ currency_code, amount }))
}

/** A shopper's cart in the Turkish region up to a Sipay payment session (shipping option from sipay-setup). */
export async function cartWithSipaySession(store: StoreHttp, publishableKey: string, variantId: string) {
  const headers = { "x-publishable-api-key": publishableKey }
  const { regions } = await call(store, "GET", "/store/regions", { headers })
  const region = (regions as any[]).find((candidate) => (candidate.countries ?? []).some((country: any) => country.iso_2 === "tr"))
  if (!region) {
    throw new Error(`no region for TR among ${JSON.stringify(regions.map((r: any) => r.name))}`)
  }
  const address = { first_name: "Ayşe", last_name: "Yılmaz", address_1: "İstiklal Cd. 1", city: "İstanbul", country_code: "tr", postal_code: "34430", phone: "5551234567" }
  const { cart } = await call(store, "POST", "/store/carts", {
    headers,
    body: { region_id: region.id, email: "ayse@example.com", items: [{ variant_id: variantId, quantity: 2 }], shipping_address: address, billing_address: address },
  })
  const { shipping_options: options } = await call(store, "GET", `/store/shipping-options?cart_id=${cart.id}`, { headers })
  if (!options.length) {
    throw new Error("the cart has no shipping option for Türkiye")
  }
  await call(store, "POST", `/store/carts/${cart.id}/shipping-methods`, { headers, body: { option_id: options[0].id } })
  const { payment_collection: collection } = await call(store, "POST", "/store/payment-collections", { headers, body: { cart_id: cart.id } })
  const { payment_collection: withSession } = await call(store, "POST", `/store/payment-collections/${collection.id}/payment-sessions`, {
    headers,
    body: { provider_id: "pp_sipay_sipay" },
  })
  const session = withSession.payment_sessions.find((candidate: any) => candidate.provider_id === "pp_sipay_sipay")
  return { cartId: cart.id as string, sessionId: session.id as string, regionId: region.id as string, headers, shippingOptionName: options[0].name as string }
}

/** The order's payment, read as an owner would in the admin. */
export async function orderPayment(store: StoreHttp, admin: Record<string, string>, orderId: string) {
  const { order } = await call(store, "GET", `/admin/orders/${orderId}?fields=id,total,currency_code,payment_status,*payment_collections.payments`, { headers: admin })
  return order as { id: string; total: number; currency_code: string; payment_status: string; payment_collections: { payments: { provider_id: string; amount: number }[] }[] }
}
