import { declineClassOf, paymentOutcomeCode, SHOPPER_MESSAGES, shopperMessage } from ".."

describe("the shopper's messages", () => {
  it("has every message in Turkish and English, each its own text", () => {
    for (const [code, texts] of Object.entries(SHOPPER_MESSAGES)) {
      expect([code, texts.tr.length > 10, texts.en.length > 10]).toEqual([code, true, true])
      expect(texts.tr).not.toBe(texts.en)
    }
    expect(shopperMessage("card_declined", "tr")).toBe("Kartla ödeme onaylanmadı. Lütfen tekrar deneyin ya da başka bir kart kullanın.")
  })

  it("tells a decline by its class only: every gateway code gives one of three texts", () => {
    const texts = new Set<string>()
    for (let code = 0; code < 1000; code++) texts.add(shopperMessage(declineClassOf(code), "en"))
    texts.add(shopperMessage(declineClassOf(null), "en"))
    texts.add(shopperMessage(declineClassOf("41"), "en"))
    expect(texts.size).toBe(3)
    expect([declineClassOf(41), declineClassOf(44), declineClassOf(105), declineClassOf("")]).toEqual(["card_declined", "card_declined", "card_declined", "card_declined"])
    expect([declineClassOf(102), declineClassOf("1"), declineClassOf(36)]).toEqual(["card_not_valid", "card_not_valid", "card_not_valid"])
    expect([declineClassOf(30), declineClassOf(90), declineClassOf(500), declineClassOf("503")]).toEqual(["try_later", "try_later", "try_later", "try_later"])
  })

  it("names the outcome of a payment that did not end in an order", () => {
    expect(paymentOutcomeCode("failed", 41)).toBe("card_declined")
    expect(paymentOutcomeCode("failed", 102)).toBe("card_not_valid")
    expect(paymentOutcomeCode("failed", null)).toBe("try_later")
    expect(paymentOutcomeCode("pending")).toBe("payment_pending")
    expect(paymentOutcomeCode("pending", 100)).toBe("payment_pending")
    expect(paymentOutcomeCode("pending", 102)).toBe("card_not_valid")
    expect(paymentOutcomeCode("reversed", 100)).toBe("payment_reversed")
    expect(paymentOutcomeCode("order_failed", 100)).toBe("order_failed")
  })

})
