import { generateHashKey } from "../../sipay"
import { toPaymentResult } from "../../sipay/results"
import { classifyTransaction } from "../../sipay/outcome"
import { answersAuthenticated, directAnswerOf, transactionOfDirectAnswer } from "../direct-answer"

const SECRET = "app-secret-for-the-test"
const ATTEMPT = { invoice_id: "payses_01ABC_1", amount: "149.90", currency_code: "try", transaction_type: "Auth", installments: 3 }

/** A paySmart2D answer as the gateway sends it, its result hash made with `hash` parts (status|total|invoice|order|currency). */
function answer(overrides: { code?: number; paymentStatus?: number; type?: string; orderNo?: string | null; hash?: string[] | null } = {}) {
  const hash = overrides.hash === undefined ? ["1", "149.9", ATTEMPT.invoice_id, "7001", "TRY"] : overrides.hash
  const body = {
    status_code: overrides.code ?? 100,
    status_description: "Payment process successful",
    data: {
      order_no: overrides.orderNo === undefined ? "7001" : overrides.orderNo,
      invoice_id: ATTEMPT.invoice_id,
      credit_card_no: "450803****0009",
      transaction_type: overrides.type ?? "Auth",
      payment_status: overrides.paymentStatus ?? 1,
      error_code: 100,
      error: "",
      ...(hash ? { hash_key: generateHashKey(hash, SECRET) } : {}),
    },
  }
  return directAnswerOf(toPaymentResult(body, { invoiceId: ATTEMPT.invoice_id, total: "149.90", currencyCode: "TRY" }, SECRET))
}

describe("settling a direct payment from its answer", () => {
  it("a conclusive paid answer consistent with the attempt is the gateway's record: captured, the whole total, the order number", () => {
    const record = transactionOfDirectAnswer(answer(), ATTEMPT)
    expect(record).toMatchObject({ found: true, status: "Completed", orderId: "7001", productPrice: "149.90", transactionAmount: "149.90", totalRefundedAmount: "0.00", currencyCode: "TRY", transactionType: "Auth", installment: 3 })
    expect(classifyTransaction(record!)).toBe("captured")
  })

  it("a reservation answered for a pre-authorizing attempt is authorized; a conclusive decline is failed", () => {
    const reserved = transactionOfDirectAnswer(answer({ type: "Pre-Authorization" }), { ...ATTEMPT, transaction_type: "PreAuth" })
    expect(classifyTransaction(reserved!)).toBe("authorized")
    const declined = transactionOfDirectAnswer(answer({ code: 41, paymentStatus: 0, hash: ["0", "149.9", ATTEMPT.invoice_id, "7001", "TRY"] }), ATTEMPT)
    expect(declined).toMatchObject({ status: "Failed", transactionAmount: "0.00", statusCode: 41 })
    expect(classifyTransaction(declined!)).toBe("failed")
  })

  it("an answer that is not conclusive or not consistent settles nothing (checkstatus decides)", () => {
    const ambiguous = [
      answer({ hash: null }), // no result hash
      answer({ hash: ["1", "149.9", ATTEMPT.invoice_id, "7001"] }), // too few parts
      answer({ code: 100, paymentStatus: 0 }), // code and payment status disagree
      answer({ code: 41, paymentStatus: 0 }), // a decline whose hash says paid
      answer({ hash: ["0", "149.9", ATTEMPT.invoice_id, "7001", "TRY"] }), // paid, hash says failed
      answer({ orderNo: null }), // paid without an order number
      answer({ orderNo: "7002" }), // the hash names another order
    ]
    for (const given of ambiguous) expect(transactionOfDirectAnswer(given, ATTEMPT)).toBeNull()
    const inconsistent = [
      answer({ hash: ["1", "14.99", ATTEMPT.invoice_id, "7001", "TRY"] }), // another total
      answer({ hash: ["1", "149.9", ATTEMPT.invoice_id, "7001", "USD"] }), // another currency
      answer({ hash: ["1", "149.9", "payses_01ABC_2", "7001", "TRY"] }), // another invoice
      answer({ type: "Pre-Authorization" }), // reserved, the store captures at once
    ]
    for (const given of inconsistent) expect(transactionOfDirectAnswer(given, ATTEMPT)).toBeNull()
    expect(transactionOfDirectAnswer(answer(), { ...ATTEMPT, transaction_type: "PreAuth" })).toBeNull() // taken at once, the store reserves
    expect(transactionOfDirectAnswer(null, ATTEMPT)).toBeNull()
  })

  it("an answer made with another secret does not decrypt: nothing to settle from", () => {
    const body = { status_code: 100, data: { order_no: "7001", transaction_type: "Auth", payment_status: 1, hash_key: generateHashKey(["1", "149.9", ATTEMPT.invoice_id, "7001", "TRY"], "not-the-secret") } }
    const given = directAnswerOf(toPaymentResult(body, { invoiceId: ATTEMPT.invoice_id, total: "149.90", currencyCode: "TRY" }, SECRET))
    expect(transactionOfDirectAnswer(given, ATTEMPT)).toBeNull()
  })

  it("answers are taken as the gateway's word over TLS, or plain HTTP to this machine only", () => {
    expect(answersAuthenticated("https://provisioning.sipay.com.tr/ccpayment")).toBe(true)
    expect(answersAuthenticated("http://127.0.0.1:4010/ccpayment")).toBe(true)
    expect(answersAuthenticated("http://localhost:4010/ccpayment")).toBe(true)
    expect(answersAuthenticated("http://gateway.example.com/ccpayment")).toBe(false)
    expect(answersAuthenticated("not a url")).toBe(false)
  })
})
