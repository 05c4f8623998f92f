import { CONFIRMATION_TTL_MS, signConfirmation, signedConfirmation, validConfirmation } from "../confirmation"

const SECRET = "app-secret-for-the-test"
const FIELDS = {
  invoice_id: "payses_01ABC_1",
  status: "captured" as const,
  amount: "149.90",
  captured_amount: "149.90",
  currency_code: "TRY",
  transaction_type: "Auth",
  gateway_order_no: "42",
  installments: 1,
}

describe("gateway confirmation (session data gateway_confirmation)", () => {
  const now = 1_800_000_000_000
  const signed = signConfirmation(SECRET, FIELDS, now)

  it("is valid for its invoice during its short validity only", () => {
    expect(signed.expires_at).toBe(now + CONFIRMATION_TTL_MS)
    expect(validConfirmation(SECRET, signed, FIELDS.invoice_id, now + 1000)).toEqual(signed)
    expect(validConfirmation(SECRET, signed, FIELDS.invoice_id, now + CONFIRMATION_TTL_MS)).toBeNull()
    expect(validConfirmation(SECRET, signed, "payses_01ABC_2", now)).toBeNull()
  })

  it("does not verify once any field is changed, under another secret, or when malformed", () => {
    const changes: Record<string, unknown>[] = [
      { amount: "1.00" },
      { captured_amount: "1.00" },
      { status: "authorized" },
      { currency_code: "USD" },
      { transaction_type: "Pre-Authorization" },
      { gateway_order_no: "43" },
      { installments: 2 },
      { expires_at: signed.expires_at + 1 },
      { invoice_id: "payses_01ABC_2" },
      { mac: signed.mac.replace(/^./, (c) => (c === "A" ? "B" : "A")) },
    ]
    for (const change of changes) {
      expect(signedConfirmation(SECRET, { ...signed, ...change })).toBeNull()
    }
    expect(signedConfirmation("another-secret", signed)).toBeNull()
    for (const junk of [null, undefined, "x", 1, [], {}, { ...signed, mac: 5 }]) {
      expect(signedConfirmation(SECRET, junk)).toBeNull()
    }
    expect(signedConfirmation(SECRET, JSON.parse(JSON.stringify(signed)))).toEqual(signed)
  })
})
