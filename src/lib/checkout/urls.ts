import type { CustomerLanguage } from "../customer-language"
import { DEFAULT_DESCRIPTION_TEMPLATES } from "../options"

/**
 * Where a shopper lands after the 3D step. Templates carry {cart_id}, {order_id}, {error} and
 * {country_code} (the cart's shipping country, lower case); only the configured storefront origin is
 * ever a target, so a redirect cannot be steered elsewhere. The defaults are the routes of Medusa's
 * Next.js storefront (dtc-starter), which shows its own pages under /{country_code}/.
 */
export type ShopperUrlTemplates = { storefrontUrl?: string | null; successUrl?: string | null; failureUrl?: string | null }

export const DEFAULT_SUCCESS_PATH = "/{country_code}/order/{order_id}/confirmed"
export const DEFAULT_FAILURE_PATH = "/{country_code}/checkout?step=payment&cart_id={cart_id}&error={error}"

export type ShopperUrlValues = { cart_id?: string; order_id?: string; error?: string; country_code?: string | null }

export function fillTemplate(template: string, values: ShopperUrlValues): string {
  const country = /^[a-z]{2}$/i.test(values.country_code ?? "") ? values.country_code!.toLowerCase() : ""
  // Without a country (an unverified return, a cart with no address) the segment goes: "/checkout" is
  // answered by the starter's middleware with the default region's page, "//checkout" by nothing.
  const withCountry = country ? template : template.replace(/\/\{country_code\}(?=[/?#]|$)/g, "")
  return withCountry.replace(/\{(cart_id|order_id|error|country_code)\}/g, (_, name: keyof ShopperUrlValues) =>
    name === "country_code" ? country : encodeURIComponent(values[name] ?? "")
  )
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

export function successUrlFor(templates: ShopperUrlTemplates, values: { cart_id: string; order_id: string; country_code?: string | null }): string | null {
  const template = absolute(templates.successUrl, DEFAULT_SUCCESS_PATH, templates.storefrontUrl)
  return template ? fillTemplate(template, values) : null
}

export function failureUrlFor(templates: ShopperUrlTemplates, values: { cart_id: string; error: string; country_code?: string | null }): string | null {
  const template = absolute(templates.failureUrl, DEFAULT_FAILURE_PATH, templates.storefrontUrl)
  return template ? fillTemplate(template, values) : null
}

/** Whether the shopper's URL for this outcome names the cart's country (only then is the cart read for it). */
export function namesCountry(templates: ShopperUrlTemplates, outcome: "success" | "failure"): boolean {
  const template = outcome === "success" ? absolute(templates.successUrl, DEFAULT_SUCCESS_PATH, templates.storefrontUrl) : absolute(templates.failureUrl, DEFAULT_FAILURE_PATH, templates.storefrontUrl)
  return Boolean(template?.includes("{country_code}"))
}

/**
 * The invoice description the customer reads at the gateway: the store's template, else the built-in
 * one in the customer's language; {cart_id} and {order} are the cart's id, {store} the store's name.
 */
export function describeInvoice(template: string | null, values: { cart_id: string; store?: string; language: CustomerLanguage }): string {
  return (template || DEFAULT_DESCRIPTION_TEMPLATES[values.language])
    .replace(/\{cart_id\}/g, values.cart_id)
    .replace(/\{order\}/g, values.cart_id)
    .replace(/\{store\}/g, values.store ?? "")
    .slice(0, 255)
}
