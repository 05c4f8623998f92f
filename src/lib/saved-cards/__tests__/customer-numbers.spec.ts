import { scratchDatabase } from "../../shared-state/__tests__/scratch-database"
import { allocateCustomerNumber, CUSTOMER_NUMBER_TABLE_SQL, randomCustomerNumber } from "../customer-numbers"

jest.setTimeout(20000)

let scratch: Awaited<ReturnType<typeof scratchDatabase>>

beforeAll(async () => {
  scratch = await scratchDatabase()
  for (const sql of CUSTOMER_NUMBER_TABLE_SQL) await scratch.db.raw(sql)
})
afterAll(() => scratch?.drop())

describe("customer numbers at the gateway's card storage", () => {
  it("are 16-digit numbers within JavaScript's safe integers", () => {
    for (let i = 0; i < 200; i++) {
      const number = randomCustomerNumber()
      expect(number).toMatch(/^[1-8]\d{15}$/)
      expect(Number.isSafeInteger(Number(number))).toBe(true)
    }
  })

  it("are allocated once per customer, the same for concurrent first uses from two processes", async () => {
    const other = scratch.connect()
    const numbers = await Promise.all([
      ...Array.from({ length: 5 }, () => allocateCustomerNumber(scratch.db, "cus_A")),
      ...Array.from({ length: 5 }, () => allocateCustomerNumber(other, "cus_A")),
    ])
    expect(new Set(numbers).size).toBe(1)
    expect(await allocateCustomerNumber(scratch.db, "cus_B")).not.toBe(numbers[0])
  })

  it("a number drawn twice is never given to a second customer: the next draw is taken", async () => {
    const first = await allocateCustomerNumber(scratch.db, "cus_C", () => "1234567890123456")
    const draws = ["1234567890123456", "2234567890123456"]
    const second = await allocateCustomerNumber(scratch.db, "cus_D", () => draws.shift()!)
    expect([first, second]).toEqual(["1234567890123456", "2234567890123456"])
  })
})
