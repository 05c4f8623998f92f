// The demo storefront's shared parts: the store API over fetch, money, rendering, and the cart.
// window.SIPAY_DEMO = { storeUrl, publishableKey, regionId, smsCode, testCards } is injected by the demo's server.
export const config = window.SIPAY_DEMO
export const main = document.getElementById("main")
export const CART_KEY = "sipay_demo_cart_id"
export const PROVIDER_3D = "pp_sipay_sipay"
export const PROVIDER_2D = "pp_sipay-2d_sipay"

export function escapeHtml(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])
}

export function money(amount, currency) {
  return new Intl.NumberFormat("tr-TR", { style: "currency", currency: String(currency || "try").toUpperCase() }).format(Number(amount))
}

export async function api(path, options = {}) {
  const response = await fetch(config.storeUrl + path, {
    method: options.method || "GET",
    headers: Object.assign({ "x-publishable-api-key": config.publishableKey }, options.body ? { "content-type": "application/json" } : {}),
    body: options.body ? JSON.stringify(options.body) : undefined,
  })
  const data = await response.json().catch(() => ({}))
  if (!response.ok) {
    const error = new Error(data.message || `HTTP ${response.status}`)
    error.status = response.status
    error.data = data
    throw error
  }
  return data
}

export function render(html, title) {
  main.innerHTML = html
  document.title = `${title} · Sipay Demo Store`
  const heading = main.querySelector("h1")
  if (heading) {
    heading.setAttribute("tabindex", "-1")
    heading.focus()
  }
}

export function showError(element, message) {
  element.hidden = false
  element.textContent = message
  element.focus()
}

// ---- cart ----------------------------------------------------------------------------------

const CART_FIELDS = "fields=id,email,total,subtotal,currency_code,completed_at,*items,*shipping_address,*payment_collection"

export async function currentCart() {
  const id = localStorage.getItem(CART_KEY)
  if (!id) return null
  try {
    const { cart } = await api(`/store/carts/${id}?${CART_FIELDS}`)
    if (cart.completed_at) {
      localStorage.removeItem(CART_KEY)
      return null
    }
    return cart
  } catch (error) {
    if (error.status === 404) {
      localStorage.removeItem(CART_KEY)
      return null
    }
    throw error
  }
}

export function updateCartCount(cart) {
  const count = cart ? cart.items.reduce((sum, item) => sum + item.quantity, 0) : 0
  document.getElementById("cart-count").textContent = String(count)
  document.getElementById("cart-link").setAttribute("aria-label", `Sepet · Cart, ${count}`)
}

export async function addToCart(variantId) {
  let cart = await currentCart()
  if (!cart) {
    ;({ cart } = await api("/store/carts", { method: "POST", body: { region_id: config.regionId, items: [{ variant_id: variantId, quantity: 1 }] } }))
    localStorage.setItem(CART_KEY, cart.id)
  } else {
    ;({ cart } = await api(`/store/carts/${cart.id}/line-items`, { method: "POST", body: { variant_id: variantId, quantity: 1 } }))
  }
  return cart
}


export function cartTable(cart) {
  const rows = cart.items
    .map(
      (item) => `<tr>
        <td>${escapeHtml(item.product_title || item.title)}</td>
        <td class="num">${item.quantity}</td>
        <td class="num">${money(item.unit_price, cart.currency_code)}</td>
        <td class="num">${money(item.total ?? item.unit_price * item.quantity, cart.currency_code)}</td>
      </tr>`
    )
    .join("")
  return `<table>
    <caption class="muted">Sepetiniz · Your cart</caption>
    <thead><tr><th scope="col">Ürün · Product</th><th scope="col" class="num">Adet · Qty</th><th scope="col" class="num">Fiyat · Price</th><th scope="col" class="num">Tutar · Amount</th></tr></thead>
    <tbody>${rows}</tbody>
  </table>
  <p class="totals"><span>Toplam · Total</span> <strong id="cart-total">${money(cart.total, cart.currency_code)}</strong></p>`
}
