import { createAccountHolder, customerNumberOfHolder, type AccountHolderDeps } from "../core/account-holders"

/** A database that answers the customer-number statements from a map, counting its calls. */
function fakeDatabase() {
  const numbers = new Map<string, string>()
  const calls: string[] = []
  const db = {
    raw: async (sql: string, bindings: unknown[] = []) => {
      calls.push(sql.split(" ")[0])
      if (sql.startsWith("select")) return { rows: numbers.has(String(bindings[0])) ? [{ customer_number: numbers.get(String(bindings[0])) }] : [] }
      if (!numbers.has(String(bindings[0]))) numbers.set(String(bindings[0]), String(bindings[1]))
      return { rows: [] }
    },
  }
  return { db, calls }
}

const deps = (db: unknown, savedCardsEnabled: boolean): AccountHolderDeps => ({ client: {} as never, appSecret: "secret", database: () => db as never, savedCardsEnabled })
const customer = { id: "cus_1", email: "ayse@example.com" } as never

describe("the providers' createAccountHolder", () => {
  it("with saved cards off creates no account holder and writes nothing", async () => {
    const { db, calls } = fakeDatabase()
    expect(await createAccountHolder(deps(db, false), { context: { customer } })).toEqual({})
    expect(calls).toEqual([])
  })

  it("allocates the customer's number once, and answers a known holder's number without a write", async () => {
    const { db, calls } = fakeDatabase()
    const first = await createAccountHolder(deps(db, true), { context: { customer } })
    expect(first.id).toMatch(/^\d{16}$/)
    expect(first.data).toEqual({ customer_number: first.id })
    expect(await createAccountHolder(deps(db, true), { context: { customer } })).toEqual(first)
    calls.length = 0
    expect(await createAccountHolder(deps(db, true), { context: { customer, account_holder: { data: { customer_number: first.id } } } })).toEqual(first)
    expect(calls).toEqual([])
  })

  it("refuses an account holder without a numeric customer number", () => {
    expect(() => customerNumberOfHolder({ data: { customer_number: "12a" } })).toThrow(/no customer number/)
    expect(customerNumberOfHolder({ data: {}, external_id: "1234567890123456" })).toBe("1234567890123456")
  })
})
