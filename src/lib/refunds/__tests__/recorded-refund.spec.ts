import { isRecordedRefund, recordedRefundMetadata, refundTransactionIdFor, RECORDED_REFUND_KEY } from "../recorded-refund"

const SECRET = "app-secret-for-tests"

describe("a refund recorded, not sent", () => {
  it("verifies only for the sale and amount it was made for, under the same secret", () => {
    const metadata = recordedRefundMetadata(SECRET, "payses_A_1", 14990n)
    expect(isRecordedRefund(SECRET, metadata, "payses_A_1", 14990n)).toBe(true)
    expect(isRecordedRefund(SECRET, metadata, "payses_A_2", 14990n)).toBe(false)
    expect(isRecordedRefund(SECRET, metadata, "payses_A_1", 14989n)).toBe(false)
    expect(isRecordedRefund("another-secret", metadata, "payses_A_1", 14990n)).toBe(false)
  })

  it("an admin refund (no metadata, other metadata, a planted mark) is not one", () => {
    expect(isRecordedRefund(SECRET, null, "payses_A_1", 14990n)).toBe(false)
    expect(isRecordedRefund(SECRET, {}, "payses_A_1", 14990n)).toBe(false)
    expect(isRecordedRefund(SECRET, { [RECORDED_REFUND_KEY]: "x".repeat(43) }, "payses_A_1", 14990n)).toBe(false)
    expect(isRecordedRefund(SECRET, { [RECORDED_REFUND_KEY]: 1 }, "payses_A_1", 14990n)).toBe(false)
  })
})

describe("the refund_transaction_id of a refund sent from Medusa", () => {
  it("is the same for a retry of the same refund and differs for any other, within the gateway's alphabet and length", () => {
    const first = refundTransactionIdFor(SECRET, "payses_A_1", 0n, 5000n)
    expect(refundTransactionIdFor(SECRET, "payses_A_1", 0n, 5000n)).toBe(first)
    expect(refundTransactionIdFor(SECRET, "payses_A_1", 5000n, 5000n)).not.toBe(first)
    expect(refundTransactionIdFor(SECRET, "payses_A_1", 0n, 3000n)).not.toBe(first)
    expect(refundTransactionIdFor(SECRET, "payses_A_2", 0n, 5000n)).not.toBe(first)
    expect(first).toMatch(/^rf_[A-Za-z0-9]{30,40}$/)
  })
})
