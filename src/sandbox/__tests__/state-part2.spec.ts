import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { daysAfter, istanbulToday, linkForm, paymentFields, postJson, postMultipart, start, tokenFor, transactionsBody } from "./support"

describe("sandbox: payment links and recurring plans in the --data file", () => {
  it("keeps links, plans and chargebacks across a restart, and loads a data file written before them", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sipay-sandbox-")), "state.json")
    let sandbox = await start({ dataFile: file })
    let token = await tokenFor(sandbox)
    const today = await istanbulToday(sandbox)
    const form = linkForm({
      amount: "10", currency: "1", is_amount_set_by_user: "0", payment_link_type: "2", name_of_product: "Mug", description: "Blue",
      expire_date: daysAfter(today, 5),
    })
    const link = (await postMultipart(`${sandbox.base_url}/api/dpl/create`, form, token)).body.data.dpl
    const fields = paymentFields(sandbox.merchant, { order_type: 1, recurring_payment_number: 2, recurring_payment_cycle: "D", recurring_payment_interval: 1, recurring_web_hook_key: "rec" })
    const planCode = (await postJson(`${sandbox.base_url}/api/paySmart2D`, fields, token)).body.data.order_no
    await postJson(`${sandbox.link_base}/__sandbox/chargeback`, { invoice_id: fields.invoice_id })
    await sandbox.close()

    sandbox = await start({ dataFile: file })
    token = await tokenFor(sandbox)
    const sent = await postJson(`${sandbox.base_url}/api/dpl/sendemail`, { dpl_id: link.id, payment_link_type: 2, email: ["a@example.com"] }, token)
    expect(sent.body.data.dpl).toMatchObject({ id: link.id, token: link.token })
    const plan = await postJson(`${sandbox.base_url}/api/recurringPlan/query`, { merchant_key: sandbox.merchant.merchant_key, plan_code: planCode }, token)
    expect(plan.body).toMatchObject({ plan_code: planCode, recurring_status: "Active" })
    const sales = await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(sandbox.merchant.merchant_key, { date: today, invoiceid: fields.invoice_id }), token)
    expect(sales.body.data[0]).toMatchObject({ transaction_state_id: 11 })
    await sandbox.close()

    const older = JSON.parse(readFileSync(file, "utf8"))
    delete older.links
    delete older.recurring_plans
    for (const sale of older.sales) {
      delete sale.chargeback_at_ms
      sale.recurring_id = 0
    }
    writeFileSync(file, JSON.stringify(older))
    sandbox = await start({ dataFile: file })
    token = await tokenFor(sandbox)
    const again = await postJson(`${sandbox.base_url}/api/getTransactions`, transactionsBody(sandbox.merchant.merchant_key, { date: today, invoiceid: fields.invoice_id }), token)
    expect(again.body.data[0]).toMatchObject({ transaction_state_id: 1 })
    const reopened = await postJson(`${sandbox.base_url}/api/recurringPlan/query`, { merchant_key: sandbox.merchant.merchant_key, plan_code: planCode }, token)
    // A part-1 recurring payment gets its plan on the first request after the upgrade.
    expect(reopened.body).toMatchObject({ plan_code: planCode, completed_payment_number: 1 })
    await sandbox.close()
  })
})
