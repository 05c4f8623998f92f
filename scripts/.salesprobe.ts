import knexFactory from "knex"
import { LedgerStore } from "../src/modules/sipay/ledger/store"
import { ledgerFiltersOf, ledgerSortOf } from "../src/api/admin/sipay/transactions/filters"
import { SalesQuery } from "../src/api/admin/sipay/transactions/validators"
const day = process.argv[2]
const pages = [
  `date=${day}`,
  `date=${day}&order=gross&offset=50000`,
  `date=${day}&currency_id=1&transaction_state=1&payment_method_id=1&min_amount=20&order=-invoice_id&offset=20000`,
  `date=${day}&min_amount=100&max_amount=500`,
  `date=${day}&order=-state&offset=99950`,
  `date=${day}&currency_id=3`,
]
async function main() {
  const db = knexFactory({ client: "pg", connection: process.env.DBURL, pool: { min: 1, max: 4 } })
  const store = new LedgerStore(db as any)
  for (let round = 0; round < 3; round++) {
    for (const page of pages) {
      const query: any = SalesQuery.parse(Object.fromEntries(new URLSearchParams(page)))
      const parts: string[] = []
      let t = performance.now()
      await store.summary(ledgerFiltersOf(query)); parts.push(`summary ${(performance.now() - t).toFixed(0)}`)
      t = performance.now()
      await store.view(ledgerFiltersOf(query), { ...ledgerSortOf(query), limit: query.limit, offset: query.offset }); parts.push(`view ${(performance.now() - t).toFixed(0)}`)
      console.log(round, page.replace(`date=${day}`, "").padEnd(90), parts.join(" "))
    }
  }
  await db.destroy()
}
main()
