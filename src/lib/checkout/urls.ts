/**
 * Where a shopper lands after the 3D step. Templates carry {cart_id}, {order_id}, {error}; only
 * the configured storefront origin is ever a target, so a redirect cannot be steered elsewhere.
 */
export type ShopperUrlTemplates = { storefrontUrl?: string | null; successUrl?: string | null; failureUrl?: string | null }

export const DEFAULT_SUCCESS_PATH = "/order/confirmed/{order_id}"
export const DEFAULT_FAILURE_PATH = "/checkout?step=payment&cart_id={cart_id}&error={error}"

export function fillTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{(cart_id|order_id|error)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""))
}

function absolute(template: string | null | undefined, fallbackPath: string, storefrontUrl: string | null | undefined): string | null {
  if (template && /^https?:\/\//.test(template)) {
    return template
  }
  if (!storefrontUrl) {
    return null
  }
  return `${storefrontUrl.replace(/\/+$/, "")}${template ?? fallbackPath}`
}

export function successUrlFor(templates: ShopperUrlTemplates, values: { cart_id: string; order_id: string }): string | null {
  const template = absolute(templates.successUrl, DEFAULT_SUCCESS_PATH, templates.storefrontUrl)
  return template ? fillTemplate(template, values) : null
}

export function failureUrlFor(templates: ShopperUrlTemplates, values: { cart_id: string; error: string }): string | null {
  const template = absolute(templates.failureUrl, DEFAULT_FAILURE_PATH, templates.storefrontUrl)
  return template ? fillTemplate(template, values) : null
}

export function describeInvoice(template: string, values: { cart_id: string; store?: string }): string {
  return template
    .replace(/\{cart_id\}/g, values.cart_id)
    .replace(/\{order\}/g, values.cart_id)
    .replace(/\{store\}/g, values.store ?? "")
    .slice(0, 255)
}
