import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import type { OutboxEntry, PaymentLink, RecurringPlan, SaleRecord, SavedCardRecord, TokenRecord, WebhookLogEntry } from "../types"

/**
 * Everything the sandbox remembers. A key missing from an older data file is filled from
 * emptyState() on load.
 */
export type SandboxState = {
  version: 1
  /** Derives the demo merchant's credentials when no config is given (stable across restarts). */
  seed: string
  clock_offset_ms: number
  next_ids: Record<string, number>
  tokens: Record<string, TokenRecord>
  sales: SaleRecord[]
  webhook_log: WebhookLogEntry[]
  outbox: OutboxEntry[]
  links: PaymentLink[]
  recurring_plans: RecurringPlan[]
  /** Cards stored by saveCard (deleteCard removes them). */
  saved_cards: SavedCardRecord[]
}

export function emptyState(seed = randomBytes(16).toString("hex")): SandboxState {
  return {
    version: 1,
    seed,
    clock_offset_ms: 0,
    next_ids: {},
    tokens: {},
    sales: [],
    webhook_log: [],
    outbox: [],
    links: [],
    recurring_plans: [],
    saved_cards: [],
  }
}

/** In-memory state, written atomically (temp file + rename) to dataFile after each change. */
export class SandboxStore {
  state: SandboxState
  /** Requests received per operation since start or the last reset (memory only, never in the data file). */
  calls: Record<string, number> = {}

  constructor(private readonly dataFile?: string) {
    this.state = dataFile && existsSync(dataFile) ? SandboxStore.load(dataFile) : emptyState()
  }

  private static load(file: string): SandboxState {
    let loaded: Partial<SandboxState>
    try {
      loaded = JSON.parse(readFileSync(file, "utf8"))
    } catch (error) {
      throw new Error(`sandbox data file ${file} is not readable JSON: ${(error as Error).message}`)
    }
    return { ...emptyState(loaded.seed), ...loaded }
  }

  save(): void {
    if (!this.dataFile) return
    mkdirSync(dirname(this.dataFile), { recursive: true })
    const temp = `${this.dataFile}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(this.state))
    renameSync(temp, this.dataFile)
  }

  countCall(operation: string): void {
    this.calls[operation] = (this.calls[operation] ?? 0) + 1
  }

  nextId(sequence: string, start = 1): number {
    const id = this.state.next_ids[sequence] ?? start
    this.state.next_ids[sequence] = id + 1
    return id
  }

  findSale(merchantKey: string, invoiceId: string): SaleRecord | undefined {
    return this.state.sales.find((sale) => sale.merchant_key === merchantKey && sale.invoice_id === invoiceId)
  }

  findSaleByBankSession(session: string): SaleRecord | undefined {
    return this.state.sales.find((sale) => sale.bank_session === session)
  }

  salesOf(merchantKey: string): SaleRecord[] {
    return this.state.sales.filter((sale) => sale.merchant_key === merchantKey)
  }

  /** Forgets sales, tokens, logs and the clock offset; keeps the seed (and so the demo merchant). */
  reset(): void {
    this.state = emptyState(this.state.seed)
    this.calls = {}
    this.save()
  }
}
