import { SipayClient, SipayError } from "../index"
import { RecordSplitter } from "../record-stream"
import { MAX_ANSWER_BYTES } from "../transport"
import { startFakeGateway, TEST_MERCHANT, type FakeGateway } from "./support/fake-gateway"
import { paymentRequest, TEST_CARD } from "./support/fixtures"

function split(text: string, chunkSize: number) {
  const records: unknown[] = []
  const splitter = new RecordSplitter((record) => records.push(JSON.parse(record)))
  const bytes = Buffer.from(text, "utf8")
  for (let at = 0; at < bytes.length; at += chunkSize) splitter.push(bytes.subarray(at, at + chunkSize))
  return { records, envelope: splitter.end() }
}

describe("RecordSplitter: the records of `data`, one JSON.parse each, at any chunk boundary", () => {
  const records = [
    { id: 1, invoice_id: "a\"b}{[", nested: { list: [1, { deep: "]" }], empty: {} }, note: "back\\\\slash\\\"", tr: "Ayşe Yılmaz ğüşiöç" },
    { id: 2, invoice_id: "x", refund_history: [{ amount: 5 }], text: "\\" },
    { id: 3, invoice_id: "data", data: [9, 9] },
  ]
  const answer = JSON.stringify({ status_code: 100, status_description: "ok \"data\": [", data: records, after: { data: [1] } })

  it.each([1, 2, 3, 7, 64, 100000])("splits the answer read %i bytes at a time", (size) => {
    const result = split(answer, size)
    expect(result.records).toEqual(records)
    expect(result.envelope).toEqual({ ok: true, value: { status_code: 100, status_description: "ok \"data\": [", data: [], after: { data: [1] } } })
  })

  it("takes whitespace, an array-wrapped envelope, an empty list and no list at all", () => {
    const pretty = JSON.stringify([{ status_code: 100, data: records }], null, 2)
    expect(split(pretty, 5).records).toEqual(records)
    expect(split(pretty, 5).envelope).toEqual({ ok: true, value: [{ status_code: 100, data: [] }] })
    expect(split('{"status_code":100,"data":[]}', 3)).toEqual({ records: [], envelope: { ok: true, value: { status_code: 100, data: [] } } })
    expect(split('{"status_code":1,"status_description":"bad"}', 4)).toEqual({ records: [], envelope: { ok: true, value: { status_code: 1, status_description: "bad" } } })
  })

  it("reports a cut or non-JSON answer as not ok", () => {
    expect(split(answer.slice(0, answer.length - 5), 10).envelope.ok).toBe(false)
    expect(split("<html>502</html>", 10).envelope.ok).toBe(false)
    expect(split("", 10).envelope.ok).toBe(false)
  })
})

describe("gateway answers over the size cap", () => {
  let gateway: FakeGateway
  let client: SipayClient
  beforeEach(async () => {
    gateway = await startFakeGateway()
    // The subject is the size cap, not the timeout: a busy machine takes seconds to move 10 MB, and a timeout would hide the cap.
    client = new SipayClient({ baseUrl: gateway.baseUrl, ...TEST_MERCHANT, timeoutMs: 60000 })
  })
  afterEach(() => gateway.close())

  const huge = (extra: Record<string, unknown>) => ({ raw: JSON.stringify({ status_code: 100, padding: "x".repeat(MAX_ANSWER_BYTES + 10), ...extra }) })

  it("a read answered too large is a clear error, not a network fault, and is not sent again", async () => {
    gateway.on("/api/checkstatus", () => huge({ transaction_status: "Completed" }))
    const error: SipayError = await client.checkStatus("inv_1").then(() => null as never, (e) => e)
    expect(error).toBeInstanceOf(SipayError)
    expect(error).toMatchObject({ operation: "checkstatus", code: "answer_too_large", retryable: false })
    expect(error.message).toBe("Sipay checkstatus failed: the gateway's answer is larger than 10 MB and was not read (not sent again)")
    expect(gateway.to("/api/checkstatus")).toHaveLength(1)
  })

  it("a payment answered too large is never sent again and says the outcome must be reconciled", async () => {
    gateway.on("/api/paySmart2D", () => huge({}))
    const error: SipayError = await client.paySmart2D(paymentRequest(), TEST_CARD).then(() => null as never, (e) => e)
    expect(error).toMatchObject({ operation: "paySmart2D", code: "outcome_unknown", retryable: false })
    expect(error.message).toMatch(/larger than 10 MB .*reconcile with checkStatus/)
    expect(gateway.to("/api/paySmart2D")).toHaveLength(1)
  })

  it("getTransactions has no cap: a 25 MB day arrives record by record", async () => {
    const sale = (id: number) => ({ id, invoice_id: `inv_${id}`, padding: "y".repeat(2000), user_name: "Ayşe" })
    const count = 12000
    gateway.on("/api/getTransactions", () => ({ raw: JSON.stringify({ status_code: 100, status_description: "Success", data: Array.from({ length: count }, (_, i) => sale(i + 1)) }) }))
    const seen: number[] = []
    const total = await client.streamTransactions({ date: "2026-11-20" }, (record) => {
      seen.push(record.id)
    })
    expect(total).toBe(count)
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i + 1))
    expect(gateway.to("/api/getTransactions")).toHaveLength(1)
  })

  it("a failing record handler stops the read and surfaces its own error, without a repeat", async () => {
    gateway.on("/api/getTransactions", () => ({ body: { status_code: 100, data: [{ id: 1 }, { id: 2 }] } }))
    const failure = new Error("database down")
    await expect(client.streamTransactions({ date: "2026-11-20" }, () => { throw failure })).rejects.toBe(failure)
    expect(gateway.to("/api/getTransactions")).toHaveLength(1)
  })

  it("a gateway error code in a streamed answer is a SipayError as before", async () => {
    gateway.on("/api/getTransactions", () => ({ body: { status_code: 1, status_description: "The date field is required." } }))
    await expect(client.streamTransactions({ date: "2026-11-20" }, () => undefined)).rejects.toMatchObject({ operation: "getTransactions", statusCode: 1 })
  })
})
