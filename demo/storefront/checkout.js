// The checkout page: address, the choice of 3D (the plugin's hosted card page) or a direct card
// payment with installments, and the failure the store redirects back with.
import { api, cartTable, CART_KEY, config, currentCart, escapeHtml, money, PROVIDER_2D, PROVIDER_3D, render, showError, updateCartCount } from "./store.js"
// The storefront kit's helpers over Medusa's JS SDK (the demo bundles them at start): what a real storefront uses.
import { createSdk, getInstallmentOptions, payDirect as payDirectWithKit, startHostedPayment } from "/kit.js"

const sdk = createSdk(config)

// From the sandbox's card table, as the demo found it at start; the storefront shows the everyday ones.
const SMS_CODE = config && config.smsCode
const TEST_CARDS = ((config && config.testCards) || []).filter((card) => /^(4508|5406|4000)/.test(card.number))

const YEAR = new Date().getFullYear()

function checkoutForm(cart, failure) {
  const address = cart.shipping_address || {}
  const value = (field, fallback) => escapeHtml(address[field] || fallback)
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, "0"))
  const years = Array.from({ length: 12 }, (_, i) => String(YEAR + i))
  return `<h1>Ödeme · Checkout</h1>
    <div id="checkout-error" class="alert error" role="alert" tabindex="-1" ${failure ? "" : "hidden"}>${
      failure ? `Ödeme tamamlanamadı · The payment did not go through: ${escapeHtml(failure.replace(/[.\s]+$/, ""))}. Sepetiniz duruyor, tekrar deneyebilirsiniz. · Your cart is kept; you can try again.` : ""
    }</div>
    ${cartTable(cart)}
    <form id="checkout-form" novalidate>
      <fieldset>
        <legend>İletişim ve adres · Contact and address</legend>
        <label>E-posta · E-mail <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(cart.email || "ayse@example.com")}" /></label>
        <div class="row">
          <label>Ad · First name <input id="first_name" name="first_name" autocomplete="given-name" required value="${value("first_name", "Ayşe")}" /></label>
          <label>Soyad · Last name <input id="last_name" name="last_name" autocomplete="family-name" required value="${value("last_name", "Yılmaz")}" /></label>
        </div>
        <label>Adres · Address <input id="address_1" name="address_1" autocomplete="address-line1" required value="${value("address_1", "İstiklal Cd. 1")}" /></label>
        <div class="row">
          <label>Şehir · City <input id="city" name="city" autocomplete="address-level2" required value="${value("city", "İstanbul")}" /></label>
          <label>Posta kodu · Postal code <input id="postal_code" name="postal_code" autocomplete="postal-code" value="${value("postal_code", "34430")}" /></label>
          <label>Telefon · Phone <input id="phone" name="phone" type="tel" autocomplete="tel" value="${value("phone", "5551234567")}" /></label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Ödeme yöntemi · Payment method</legend>
        <label class="choice"><input type="radio" id="method-3d" name="method" value="3d" checked />
          <span><strong>3D Secure</strong> — kart bilgileri güvenli ödeme sayfasında, ardından bankanın SMS onayı · card on the secure payment page, then the bank's SMS check</span></label>
        <label class="choice"><input type="radio" id="method-2d" name="method" value="2d" />
          <span><strong>Doğrudan kart · Direct card (2D)</strong> — kart bu sayfada, taksit seçeneğiyle · card on this page, with installments</span></label>
      </fieldset>
      <fieldset id="card-fields" hidden>
        <legend>Kart · Card</legend>
        <label>Kart üzerindeki isim · Name on card <input id="card-holder" autocomplete="cc-name" /></label>
        <label>Kart numarası · Card number <input id="card-number" inputmode="numeric" autocomplete="cc-number" aria-describedby="card-number-help" />
          <span id="card-number-help" class="muted">Taksitler ilk 6 haneden sonra gelir · Installments appear after the first 6 digits</span></label>
        <div class="row">
          <label>Ay · Month <select id="card-month" autocomplete="cc-exp-month">${months.map((m) => `<option>${m}</option>`).join("")}</select></label>
          <label>Yıl · Year <select id="card-year" autocomplete="cc-exp-year">${years.map((y, i) => `<option ${i === 3 ? "selected" : ""}>${y}</option>`).join("")}</select></label>
          <label>CVV <input id="card-cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4" /></label>
        </div>
        <div id="installments" role="group" aria-labelledby="installments-label" aria-live="polite">
          <p id="installments-label"><strong>Taksit · Installments</strong></p>
          <p class="muted" id="installments-empty">Kart numarasını girin · Enter the card number</p>
        </div>
        <div id="agricultural" hidden class="row">
          <label>Vade (ay) · Maturity (months) <select id="maturity-period"></select></label>
          <label>Ödeme sıklığı (ay) · Payment frequency (months) <select id="payment-frequency"></select></label>
        </div>
      </fieldset>
      <div class="hint">
        <p><strong>Test kartları · Test cards</strong> (ileri bir son kullanma tarihi, herhangi bir CVV · any future expiry, any CVV; SMS: <code>${escapeHtml(SMS_CODE)}</code>)</p>
        <ul>${TEST_CARDS.map((card) => `<li><code>${escapeHtml(card.number.replace(/(\d{4})(?=\d)/g, "$1 "))}</code> — ${escapeHtml(card.description)}</li>`).join("")}</ul>
      </div>
      <p id="pay-status" class="muted" role="status" aria-live="polite"></p>
      <div class="actions"><button id="pay-button" type="submit">Öde · Pay ${money(cart.total, cart.currency_code)}</button></div>
    </form>`
}

export async function checkoutPage(params) {
  if (params.get("cart_id")) localStorage.setItem(CART_KEY, params.get("cart_id"))
  const cart = await currentCart()
  updateCartCount(cart)
  if (!cart || cart.items.length === 0) {
    render(`<h1>Ödeme · Checkout</h1><p>Sepetiniz boş. · Your cart is empty.</p><p><a href="/">Ürünlere dön · Back to products</a></p>`, "Ödeme · Checkout")
    return
  }
  const failure = params.get("error")
  render(checkoutForm(cart, failure), "Ödeme · Checkout")
  if (failure) document.getElementById("checkout-error").focus()
  wireCheckout(cart)
}

function wireCheckout(cart) {
  const form = document.getElementById("checkout-form")
  const cardFields = document.getElementById("card-fields")
  const errorBox = document.getElementById("checkout-error")
  const status = document.getElementById("pay-status")
  const payButton = document.getElementById("pay-button")
  const amount = Number(cart.total).toFixed(2)
  let installmentsFor = ""

  form.querySelectorAll("input[name=method]").forEach((radio) =>
    radio.addEventListener("change", () => {
      cardFields.hidden = form.method.value !== "2d"
    })
  )

  const cardNumber = document.getElementById("card-number")
  cardNumber.addEventListener("input", async () => {
    const bin = cardNumber.value.replace(/\D/g, "").slice(0, 6)
    if (bin.length < 6 || bin === installmentsFor) return
    installmentsFor = bin
    const box = document.getElementById("installments")
    try {
      const offer = await getInstallmentOptions(sdk, { bin, amount, currencyCode: cart.currency_code })
      if (bin !== installmentsFor) return
      box.querySelectorAll(".choice, #installments-empty").forEach((node) => node.remove())
      for (const option of offer.installments) {
        const n = option.installments_number
        const each = option.amount_to_be_paid ? money(Number(option.amount_to_be_paid) / n, cart.currency_code) : ""
        const text = n === 1 ? "Tek çekim · Single payment" : `${n} taksit · ${n} installments${each ? ` (${n} × ${each})` : ""}`
        box.insertAdjacentHTML(
          "beforeend",
          `<label class="choice"><input type="radio" name="installments" id="inst-${n}" value="${n}" ${n === 1 ? "checked" : ""} /> <span>${escapeHtml(text)}</span></label>`
        )
      }
      const agricultural = document.getElementById("agricultural")
      agricultural.hidden = !offer.agricultural
      if (offer.agricultural) {
        document.getElementById("maturity-period").innerHTML = offer.agricultural.maturity_periods.map((m) => `<option>${m}</option>`).join("")
        document.getElementById("payment-frequency").innerHTML = offer.agricultural.payment_frequencies.map((m) => `<option>${m}</option>`).join("")
      }
    } catch (error) {
      box.querySelectorAll(".choice").forEach((node) => node.remove())
      installmentsFor = ""
      status.textContent = `Taksitler alınamadı · Installments unavailable: ${error.message}`
    }
  })

  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    errorBox.hidden = true
    payButton.disabled = true
    status.textContent = "İşleniyor… · Processing…"
    try {
      const address = {
        first_name: form.first_name.value.trim(),
        last_name: form.last_name.value.trim(),
        address_1: form.address_1.value.trim(),
        city: form.city.value.trim(),
        postal_code: form.postal_code.value.trim(),
        phone: form.phone.value.trim(),
        country_code: "tr",
      }
      if (!form.email.value.trim() || !address.first_name || !address.last_name || !address.address_1 || !address.city) {
        throw new Error("E-posta, ad, soyad, adres ve şehir gerekli · E-mail, name, address and city are required")
      }
      await api(`/store/carts/${cart.id}`, { method: "POST", body: { email: form.email.value.trim(), shipping_address: address, billing_address: address } })
      const method = form.method.value
      // The kit creates the provider's payment session when the cart has none (Medusa's own route).
      const { cart: withCollection } = await api(`/store/carts/${cart.id}?fields=id,*payment_collection,*payment_collection.payment_sessions`)
      if (method === "3d") {
        // The plugin's hosted card page posts the card straight to the gateway; the bank page follows.
        // Its address is signed and handed out only to the holder of the cart.
        const { url } = await startHostedPayment(sdk, { cart: withCollection, providerId: PROVIDER_3D, lang: document.documentElement.lang === "en" ? "en" : "tr" })
        window.location.assign(url)
        return
      }
      await payDirect(withCollection)
    } catch (error) {
      showError(errorBox, error.message)
      status.textContent = ""
      payButton.disabled = false
    }
  })

  async function payDirect(cartWithCollection) {
    const chosen = form.querySelector("input[name=installments]:checked")
    const choice = { installments_number: chosen ? Number(chosen.value) : 1 }
    if (!document.getElementById("agricultural").hidden) {
      choice.maturity_period = Number(document.getElementById("maturity-period").value)
      choice.payment_frequency = Number(document.getElementById("payment-frequency").value)
    }
    const card = {
      holder_name: document.getElementById("card-holder").value.trim(),
      number: cardNumber.value.replace(/\s/g, ""),
      expiry_month: document.getElementById("card-month").value,
      expiry_year: document.getElementById("card-year").value,
      cvv: document.getElementById("card-cvv").value.trim(),
    }
    try {
      const locale = document.documentElement.lang === "en" ? "en" : "tr"
      const result = await payDirectWithKit(sdk, { cart: cartWithCollection, card, choice, providerId: PROVIDER_2D, locale })
      if (result.status !== "paid" && result.status !== "authorized") {
        throw new Error(result.message)
      }
      localStorage.removeItem(CART_KEY)
      window.location.assign(`/order/confirmed/${encodeURIComponent(result.order_id)}`)
    } finally {
      document.getElementById("card-cvv").value = ""
    }
  }
}
