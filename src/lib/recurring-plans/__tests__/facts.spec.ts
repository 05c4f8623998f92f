import { toRecurringPlan } from "../../sipay/recurring"
import { planFactsOf, planStatus } from "../facts"

/** The plan's answer at the top level as published (sipay-node's RecurringQueryResponse field names). */
function answer(fields: Record<string, unknown>, histories: Record<string, unknown>[]) {
  const envelope = { status_code: 100, status_description: "Success", ...fields, transactionHistories: histories }
  return toRecurringPlan(envelope, envelope)
}

describe("a plan record's gateway facts", () => {
  it("reads status, amount, payments and the next date; charges made counts the Success (= Completed) entries", () => {
    const plan = answer(
      { plan_code: "P1", recurring_status: "Active", recurring_amount: 75, payment_number: 4, next_action_date: "2026-12-23 10:00:00" },
      [
        { recurring_number: 1, status: "Success", amount: 90, attempts: 1 },
        { recurring_number: 2, status: "Completed", amount: 90, attempts: 1 },
        { recurring_number: 3, status: "Failed", amount: 75, attempts: 1 },
      ]
    )
    expect(planFactsOf(plan)).toEqual({ status: "Active", amount: "75.00", payment_number: 4, charges_made: 2, next_action_date: "2026-12-23 10:00:00" })
  })

  it("a stopped or completed plan has no next charge, whatever the answer says", () => {
    expect(planFactsOf(answer({ recurring_status: "Stopped", next_action_date: "2027-01-01 00:00:00" }, [])).next_action_date).toBeNull()
    expect(planFactsOf(answer({ recurring_status: "completed", next_action_date: "2027-01-01 00:00:00" }, [])).status).toBe("Completed")
  })

  it("leaves out what the answer lacks, so the record keeps it", () => {
    expect(planFactsOf(answer({ plan_code: "P1" }, []))).toEqual({ next_action_date: null })
  })

  it("maps the gateway's status words to Active, Stopped, Completed and keeps an unknown word", () => {
    expect([planStatus("ACTIVE"), planStatus("passive"), planStatus("0"), planStatus("Finished"), planStatus("Paused"), planStatus("")]).toEqual([
      "Active", "Stopped", "Stopped", "Completed", "Paused", undefined,
    ])
  })
})
