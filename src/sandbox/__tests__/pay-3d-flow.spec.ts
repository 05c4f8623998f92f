import { generateHashKey, validateHashKey } from "../../lib/sipay/hash"
import type { SandboxHandle } from "../index"
import {
  FAILS_3D, INSUFFICIENT, POS_UNDEFINED, SMS_CODE, VISA,
  checkstatusBody, merchantConfig, postForm, postJson, readForm, start, threeDForm, tokenFor,
} from "./support"

describe("sandbox: paySmart3D browser flow over HTTP", () => {
  let sandbox: SandboxHandle
  const merchant = () => sandbox.merchant

  beforeAll(async () => {
    sandbox = await start()
  })
  afterAll(() => sandbox.close())

  /** Posts the merchant's form and returns the bank page's HTML and form. */
  async function openBankPage(form: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await postForm(`${sandbox.base_url}/api/paySmart3D`, form, headers)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/html")
    const html = await response.text()
    return { html, action: readForm(html).action }
  }

  function redirectQuery(response: Response): { target: string; fields: Record<string, string> } {
    expect(response.status).toBe(303)
    const location = new URL(response.headers.get("location")!)
    return { target: `${location.origin}${location.pathname}`, fields: Object.fromEntries(location.searchParams) }
  }

  it("shows a bank page, takes the SMS code and redirects to return_url by GET with a verifiable result hash", async () => {
    const form = threeDForm(merchant())
    const { html, action } = await openBankPage(form)
    expect(html).toContain("Onayla")
    expect(html).toContain("İptal")
    expect(html).toContain("150,75")
    expect(html).toContain("450803****4509")
    expect(html).toContain(SMS_CODE)
    expect(action.startsWith(`${sandbox.base_url}/`)).toBe(true)

    const { target, fields } = redirectQuery(await postForm(action, { sms_code: SMS_CODE, action: "confirm" }))
    expect(target).toBe("http://shop.test/return")
    expect(fields).toMatchObject({
      service_status: "1", invoice_id: form.invoice_id, status_code: "100", status_description: "success",
      service_payment_method: "1", payment_method: "1", credit_card_no: "450803****4509", transaction_type: "Auth",
      payment_status: "1", error_code: "100", error: "", md_status: "1", installment: "1", amount: "150.75",
    })
    expect(fields.order_no).toMatch(/^\d+$/)
    expect(fields.order_id).toBe(fields.order_no)
    expect(fields.auth_code).toMatch(/^\d{6}$/)
    expect(validateHashKey(fields.hash_key, merchant().app_secret)).toEqual(["1", "150.75", form.invoice_id, fields.order_no, "TRY"])
  })

  it("posts the result to return_url with an auto-submitting form when response_method is POST", async () => {
    const form = threeDForm(merchant(), { response_method: "POST", transaction_type: "PreAuth" })
    const { action } = await openBankPage(form)
    const response = await postForm(action, { sms_code: SMS_CODE, action: "confirm" })
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain(".submit()")
    const result = readForm(html)
    expect(result.action).toBe("http://shop.test/return")
    expect(result.fields).toMatchObject({ service_status: "1", payment_status: "1", transaction_type: "Pre-Authorization", status_code: "100" })
    expect(validateHashKey(result.fields.hash_key, merchant().app_secret)?.[0]).toBe("1")
  })

  it("speaks English by ?lang=en and by Accept-Language", async () => {
    const byQuery = await postForm(`${sandbox.base_url}/api/paySmart3D?lang=en`, threeDForm(merchant()))
    const html = await byQuery.text()
    expect(html).toContain("Confirm")
    expect(html).toContain("Cancel")
    const byHeader = await openBankPage(threeDForm(merchant()), { "accept-language": "en-US,en;q=0.9" })
    expect(byHeader.html).toContain("3D Secure Verification")
    const turkish = await fetch(`${byHeader.action}?lang=tr`)
    expect(await turkish.text()).toContain("3D Secure Doğrulama")
  })

  it.each([
    ["a wrong SMS code", VISA, { sms_code: "000000", action: "confirm" }, "41", "0"],
    ["cancel on the bank page", VISA, { sms_code: "", action: "cancel" }, "41", "0"],
    ["the 3D-failing card", FAILS_3D, { sms_code: SMS_CODE, action: "confirm" }, "41", "0"],
    ["insufficient funds", INSUFFICIENT, { sms_code: SMS_CODE, action: "confirm" }, "41", "1"],
  ])("ends %s at cancel_url with payment_status 0", async (_, card, submit, code, mdStatus) => {
    const form = threeDForm(merchant(), { cc_no: card })
    const { action } = await openBankPage(form)
    const { target, fields } = redirectQuery(await postForm(action, submit))
    expect(target).toBe("http://shop.test/cancel")
    expect(fields).toMatchObject({ service_status: "0", payment_status: "0", status_code: code, md_status: mdStatus, invoice_id: form.invoice_id })
    expect(fields.error).not.toBe("")
    expect(validateHashKey(fields.hash_key, merchant().app_secret)).toEqual(["0", "150.75", form.invoice_id, fields.order_no, "TRY"])
    const token = await tokenFor(sandbox)
    const status = await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(merchant(), form.invoice_id), token)
    expect(status.body.transaction_status).toBe("Failed")
  })

  it("sends the interface's 102 failure sample to cancel_url (order_no and credit_card_no empty, no hash)", async () => {
    const form = threeDForm(merchant(), { cc_no: POS_UNDEFINED })
    const { target, fields } = redirectQuery(await postForm(`${sandbox.base_url}/api/paySmart3D`, form))
    expect(target).toBe("http://shop.test/cancel")
    expect(fields).toMatchObject({ status_code: "102", status_description: "Pos was not defined", payment_status: "0", order_no: "", credit_card_no: "" })
    expect(fields.hash_key).toBeUndefined()
  })

  it("redirects a refused request to a usable cancel_url with its code (POST when asked)", async () => {
    const form = threeDForm(merchant(), { items: JSON.stringify([{ name: "Mug", price: "1", quantity: 1 }]), response_method: "POST" })
    const response = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
    const result = readForm(await response.text())
    expect(result.action).toBe("http://shop.test/cancel")
    expect(result.fields).toMatchObject({ payment_status: "0", status_code: "13", invoice_id: form.invoice_id })
  })

  it("answers an HTML error page (400) naming the problem when there is no usable cancel_url", async () => {
    const form = threeDForm(merchant(), { cancel_url: "not a url" })
    const response = await postForm(`${sandbox.base_url}/api/paySmart3D`, form)
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain("cancel_url")
    const hashless = threeDForm(merchant(), { cancel_url: "", hash_key: "garbage" })
    const refused = await postForm(`${sandbox.base_url}/api/paySmart3D`, hashless)
    expect(refused.status).toBe(400)
  })

  it("refuses JSON and ajax posts with an error page: the interface wants a normal browser form", async () => {
    const form = threeDForm(merchant())
    const json = await fetch(`${sandbox.base_url}/api/paySmart3D`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(form), redirect: "manual" })
    expect(json.status).toBe(400)
    expect(await json.text()).toContain("form")
    const ajax = await postForm(`${sandbox.base_url}/api/paySmart3D`, form, { "x-requested-with": "XMLHttpRequest" })
    expect(ajax.status).toBe(400)
    expect(await ajax.text()).toContain("ajax")
    expect((await openBankPage(form)).action).not.toBe("")
  })

  it("validates the 3D form like 2D: total mismatch with the hash is 68", async () => {
    const form = threeDForm(merchant(), { hash_key: generateHashKey(["150", "1", "TRY", merchant().merchant_key, "x"], merchant().app_secret), invoice_id: "x" })
    const { fields } = redirectQuery(await postForm(`${sandbox.base_url}/api/paySmart3D`, form))
    expect(fields.status_code).toBe("68")
  })

  it("redirects again (same outcome) when the bank page is submitted twice", async () => {
    const { action } = await openBankPage(threeDForm(merchant()))
    const first = redirectQuery(await postForm(action, { sms_code: SMS_CODE, action: "confirm" }))
    const second = redirectQuery(await postForm(action, { sms_code: "000000", action: "confirm" }))
    expect(second.fields.payment_status).toBe("1")
    expect(second.fields.order_no).toBe(first.fields.order_no)
  })

  describe("payment_completed_by=merchant", () => {
    const complete = async (invoice: string, orderId: string, status: string) => {
      const token = await tokenFor(sandbox)
      const hash = generateHashKey([merchant().merchant_key, invoice, orderId, status], merchant().app_secret)
      return postJson(`${sandbox.base_url}/payment/complete`, { merchant_key: merchant().merchant_key, invoice_id: invoice, order_id: orderId, status, hash_key: hash }, token)
    }
    const check = async (invoice: string) => {
      const token = await tokenFor(sandbox)
      return (await postJson(`${sandbox.base_url}/api/checkstatus`, checkstatusBody(merchant(), invoice, { include_pending_status: "true" }), token)).body
    }

    it.each([
      ["complete", "Completed", "Completed"],
      ["cancel", "Failed", "Failed"],
    ])("stays Pending until the merchant calls /payment/complete with %s", async (status, transactionStatus, hashWord) => {
      const form = threeDForm(merchant(), { payment_completed_by: "merchant" })
      const { action } = await openBankPage(form)
      const { fields } = redirectQuery(await postForm(action, { sms_code: SMS_CODE, action: "confirm" }))
      expect(fields.payment_status).toBe("1")
      expect((await check(form.invoice_id)).transaction_status).toBe("Pending")
      const { body } = await complete(form.invoice_id, fields.order_no, status)
      expect(body).toMatchObject({ status_code: 100, data: { status: transactionStatus, invoice_id: form.invoice_id, order_id: fields.order_no } })
      expect(validateHashKey(body.data.hash_key, merchant().app_secret)).toEqual([hashWord, "150.75", form.invoice_id, fields.order_no, "TRY"])
      expect((await check(form.invoice_id)).transaction_status).toBe(transactionStatus)
      expect((await complete(form.invoice_id, fields.order_no, status)).body.status_code).toBe(105)
    })
  })
})

describe("sandbox: paySmart3D for a 2D-only merchant", () => {
  it("answers 34", async () => {
    const sandbox = await start({ merchants: [merchantConfig({ is_3d: 0 })] })
    try {
      const response = await postForm(`${sandbox.base_url}/api/paySmart3D`, threeDForm(sandbox.merchant))
      expect(new URL(response.headers.get("location")!).searchParams.get("status_code")).toBe("34")
    } finally {
      await sandbox.close()
    }
  })
})
