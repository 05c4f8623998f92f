import type { SaleRecord, TransactionsQuery } from "../sipay/types"
import { toLedgerRow, type LedgerRow } from "./ledger-row"

/**
 * Rows per upsert statement. Each statement's rows travel as one JSON document (about 2 KB a sale), a
 * string V8 keeps until a full collection once it outgrows the young generation or its 128 KB object
 * limit; in a long-running process with a large heap those strings piled up: 1,000 rows (2 MB) grew
 * RSS by 3x the day's payload on a 100,000-sale day, 250 by 0.27-0.64x, 50 (about 100 KB) by
 * 0.02-0.12x (docs/performance.md).
 */
const BATCH_SIZE = 50

export type PullReport = { day: string; sales: number; inserted: number; updated: number }

/** Where the rows go: the module's LedgerStore (anything with its upsert). */
type LedgerSink = { upsert(rows: readonly LedgerRow[], syncedAt: Date): Promise<{ inserted: number; updated: number }> }
type DayTotals = { refreshDayTotals(day: string): Promise<void> }

type SalesSource = { streamTransactions(query: TransactionsQuery, onSale: (sale: SaleRecord) => void | Promise<void>): Promise<number> }

/**
 * One day from the gateway into the ledger: the answer is streamed record by record and upserted in
 * batches, the next batch parsed while the previous one is written (at most one write in flight).
 * Memory stays at about two batches, whatever the day's size. No Medusa here: the job and the bench
 * share it.
 */
export async function pullDayIntoLedger(source: SalesSource, store: LedgerSink, day: string, syncedAt = new Date()): Promise<PullReport> {
  const report: PullReport = { day, sales: 0, inserted: 0, updated: 0 }
  let batch: LedgerRow[] = []
  let inFlight: Promise<void> | null = null
  const write = (rows: LedgerRow[]) =>
    store.upsert(rows, syncedAt).then((counts) => {
      report.inserted += counts.inserted
      report.updated += counts.updated
    })
  try {
    await source.streamTransactions({ date: day }, async (sale) => {
      const row = toLedgerRow(sale, day)
      if (!row) return
      batch.push(row)
      report.sales++
      if (batch.length >= BATCH_SIZE) {
        const rows = batch
        batch = []
        if (inFlight) await inFlight
        inFlight = write(rows)
      }
    })
    if (inFlight) await inFlight
    inFlight = null
    if (batch.length) await write(batch)
  } finally {
    // A failed read must not leave a write running unobserved.
    if (inFlight) await (inFlight as Promise<void>).catch(() => undefined)
  }
  return report
}

/**
 * The sales of one invoice id (getTransactions filtered by it) on each given day, into the ledger,
 * with those days' totals: one sale looked up, never the whole day. Returns how many sales it found.
 */
export async function pullInvoiceIntoLedger(source: SalesSource, store: LedgerSink & DayTotals, invoiceId: string, days: readonly string[], syncedAt = new Date()): Promise<number> {
  let found = 0
  for (const day of days) {
    const rows: LedgerRow[] = []
    await source.streamTransactions({ date: day, invoiceId }, (sale) => {
      const row = toLedgerRow(sale, day)
      if (row) rows.push(row)
    })
    await store.upsert(rows, syncedAt)
    await store.refreshDayTotals(day)
    found += rows.length
  }
  return found
}
