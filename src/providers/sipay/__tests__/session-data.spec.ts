import { droppingPlantedKeys, invoicesToAsk, OWNED_SESSION_KEYS, ownedSessionData } from "../utils/session-data"

const SESSION = "payses_01M83JY7G118DXJBG2DDD14SDA"

describe("session data the plugin owns", () => {
  it("keeps only the owned keys on update", () => {
    const kept = ownedSessionData({ session_id: SESSION, amount: "10.00", pending_capture: "1.00", note: "<img>", __proto__x: 1 })
    expect(kept).toEqual({ session_id: SESSION, amount: "10.00", pending_capture: "1.00" })
  })

  it("answers every planted key that is not owned with undefined, so Medusa's merge drops it", () => {
    const answer = droppingPlantedKeys({ note: "x", pending_capture: "149.90", settling_invoice_id: "y" }, { session_id: SESSION, pending_capture: null, settling_invoice_id: null })
    const stored = JSON.parse(JSON.stringify({ ...{ note: "x", pending_capture: "149.90", settling_invoice_id: "y" }, ...answer }))
    expect(stored).toEqual({ session_id: SESSION, pending_capture: null, settling_invoice_id: null })
    expect(OWNED_SESSION_KEYS).toContain("intended_transaction_type")
  })

  it("asks about the paid attempt first, then the open ones newest first, never a closed one or another session's, at most the limit", () => {
    const ids = [1, 2, 3, 4, 5, 6].map((n) => `${SESSION}_${n}`)
    const data = {
      session_id: SESSION,
      invoice_ids: [...ids, "payses_01OTHERSESSION00000000000000_9"],
      closed_invoice_ids: [`${SESSION}_6`, `${SESSION}_4`],
      settling_invoice_id: `${SESSION}_2`,
    }
    expect(invoicesToAsk(data, 3)).toEqual([`${SESSION}_2`, `${SESSION}_5`, `${SESSION}_3`])
    expect(invoicesToAsk({ ...data, settling_invoice_id: "payses_01OTHERSESSION00000000000000_9" }, 10)).toEqual([`${SESSION}_5`, `${SESSION}_3`, `${SESSION}_2`, `${SESSION}_1`])
    expect(invoicesToAsk({ session_id: SESSION, invoice_ids: [`${SESSION}_1`] }, 3)).toEqual([`${SESSION}_1`])
  })
})
