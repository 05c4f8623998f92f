import { failureUrlFor, namesCountry, successUrlFor } from "../urls"

describe("shopper URLs after the 3D step", () => {
  const storefront = { storefrontUrl: "http://localhost:8000/" }

  it("default to the Next.js storefront's routes under the cart's country", () => {
    expect(successUrlFor(storefront, { cart_id: "cart_1", order_id: "order_1", country_code: "TR" })).toBe("http://localhost:8000/tr/order/order_1/confirmed")
    expect(failureUrlFor(storefront, { cart_id: "cart_1", error: "Yetersiz bakiye & red", country_code: "tr" })).toBe(
      "http://localhost:8000/tr/checkout?step=payment&cart_id=cart_1&error=Yetersiz%20bakiye%20%26%20red"
    )
  })

  it("leave the country segment out when the country is unknown or not a country code", () => {
    expect(failureUrlFor(storefront, { cart_id: "", error: "x" })).toBe("http://localhost:8000/checkout?step=payment&cart_id=&error=x")
    expect(successUrlFor(storefront, { cart_id: "c", order_id: "o", country_code: "../x" })).toBe("http://localhost:8000/order/o/confirmed")
  })

  it("fill {country_code} in a template of the store's own", () => {
    const templates = { ...storefront, successUrl: "https://shop.example/api/sipay/success?order_id={order_id}&country_code={country_code}" }
    expect(successUrlFor(templates, { cart_id: "c", order_id: "order_9", country_code: "de" })).toBe(
      "https://shop.example/api/sipay/success?order_id=order_9&country_code=de"
    )
  })

  it("say whether the shopper's URL for an outcome names the country (only then is the cart read for it)", () => {
    expect(namesCountry(storefront, "success")).toBe(true)
    expect(namesCountry(storefront, "failure")).toBe(true)
    const own = { ...storefront, successUrl: "/order/confirmed/{order_id}", failureUrl: "/{country_code}/checkout?error={error}" }
    expect(namesCountry(own, "success")).toBe(false)
    expect(namesCountry(own, "failure")).toBe(true)
    expect(namesCountry({ storefrontUrl: null }, "success")).toBe(false)
  })
})
