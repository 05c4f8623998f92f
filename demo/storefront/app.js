// The demo storefront: products, cart, checkout and order confirmation, with plain fetch against
// Medusa's store API and this plugin's routes. No framework, no build step.
import { checkoutPage } from "./checkout.js"
import { addToCart, api, cartTable, CART_KEY, config, currentCart, escapeHtml, main, money, render, updateCartCount } from "./store.js"

async function productsPage() {
  const { products } = await api(
    `/store/products?region_id=${encodeURIComponent(config.regionId)}&fields=id,title,handle,description,*variants.calculated_price&limit=50&order=created_at`
  )
  const items = products
    .map((product, index) => {
      const variant = product.variants[0]
      const price = variant.calculated_price
      // No product photos in the demo: the product's initial on its own colour.
      const hue = (index * 67 + 200) % 360
      return `<li class="card product" data-handle="${escapeHtml(product.handle)}">
        <div class="thumb" aria-hidden="true" style="background: linear-gradient(135deg, hsl(${hue} 70% 88%), hsl(${(hue + 40) % 360} 80% 92%))">${escapeHtml(product.title.charAt(0))}</div>
        <h2>${escapeHtml(product.title)}</h2>
        <p class="muted">${escapeHtml(product.description)}</p>
        <p class="price">${price ? money(price.calculated_amount, price.currency_code) : ""}</p>
        <button type="button" data-add="${escapeHtml(variant.id)}" aria-label="Sepete ekle · Add to cart: ${escapeHtml(product.title)}">Sepete ekle · Add to cart</button>
      </li>`
    })
    .join("")
  render(
    `<h1>Ürünler · Products</h1>
     <p id="cart-status" class="muted" role="status" aria-live="polite"></p>
     <ul class="grid">${items}</ul>`,
    "Ürünler · Products"
  )
  main.querySelectorAll("[data-add]").forEach((button) =>
    button.addEventListener("click", async () => {
      button.disabled = true
      try {
        const cart = await addToCart(button.getAttribute("data-add"))
        updateCartCount(cart)
        document.getElementById("cart-status").textContent = "Sepete eklendi · Added to cart"
      } catch (error) {
        document.getElementById("cart-status").textContent = `Eklenemedi · Could not add: ${error.message}`
      } finally {
        button.disabled = false
      }
    })
  )
}

async function cartPage() {
  const cart = await currentCart()
  updateCartCount(cart)
  if (!cart || cart.items.length === 0) {
    render(`<h1>Sepet · Cart</h1><p>Sepetiniz boş. · Your cart is empty.</p><p><a href="/">Ürünlere dön · Back to products</a></p>`, "Sepet · Cart")
    return
  }
  render(
    `<h1>Sepet · Cart</h1>${cartTable(cart)}
     <div class="actions"><a class="button" id="checkout-button" href="/checkout">Ödemeye geç · Checkout</a></div>`,
    "Sepet · Cart"
  )
}

async function confirmationPage(orderId) {
  localStorage.removeItem(CART_KEY)
  updateCartCount(null)
  const { order } = await api(
    `/store/orders/${encodeURIComponent(orderId)}?fields=id,display_id,email,total,currency_code,payment_status,created_at,*items`
  )
  const rows = order.items
    .map((item) => `<tr><td>${escapeHtml(item.product_title || item.title)}</td><td class="num">${item.quantity}</td><td class="num">${money(item.total, order.currency_code)}</td></tr>`)
    .join("")
  render(
    `<section id="order-confirmed">
      <h1>Siparişiniz alındı · Order confirmed</h1>
      <p class="alert ok">Teşekkürler! Ödemeniz alındı. · Thank you! Your payment went through.</p>
      <p>Sipariş no · Order number: <strong id="order-display-id">#${escapeHtml(order.display_id)}</strong></p>
      <p>E-posta · E-mail: ${escapeHtml(order.email)}</p>
      <p>Ödeme durumu · Payment status: <strong id="order-payment-status">${escapeHtml(order.payment_status)}</strong></p>
      <table><thead><tr><th scope="col">Ürün · Product</th><th scope="col" class="num">Adet · Qty</th><th scope="col" class="num">Tutar · Amount</th></tr></thead><tbody>${rows}</tbody></table>
      <p class="totals"><span>Toplam · Total</span> <strong id="order-total">${money(order.total, order.currency_code)}</strong></p>
      <p><a href="/">Alışverişe devam · Continue shopping</a></p>
    </section>`,
    "Sipariş · Order"
  )
}

// ---- router --------------------------------------------------------------------------------

async function route() {
  const path = window.location.pathname
  const params = new URLSearchParams(window.location.search)
  const confirmed = /^\/order\/confirmed\/([^/]+)$/.exec(path)
  try {
    if (!config) throw new Error("The demo's configuration is missing (start it with npm run demo)")
    if (confirmed) return await confirmationPage(decodeURIComponent(confirmed[1]))
    if (path === "/cart") return await cartPage()
    if (path === "/checkout") return await checkoutPage(params)
    if (path === "/" || path === "/index.html") {
      updateCartCount(await currentCart())
      return await productsPage()
    }
    render(`<h1>Sayfa bulunamadı · Page not found</h1><p><a href="/">Ürünler · Products</a></p>`, "404")
  } catch (error) {
    render(`<h1>Bir sorun oluştu · Something went wrong</h1><p class="alert error" role="alert">${escapeHtml(error.message)}</p>`, "Error")
  }
}

route()
