import { z } from "@medusajs/framework/zod"

const empty = (value: unknown) => (value === "" || value === null ? undefined : value)
const integer = (name: string) => z.preprocess(empty, z.string().regex(/^\d+$/, { error: `${name} must be a whole number` }).transform(Number).optional())
const amount = (name: string) =>
  z.preprocess(empty, z.string().regex(/^\d+(\.\d{1,2})?$/, { error: `${name} must be a non-negative amount with at most 2 decimals` }).optional())

/** An existing calendar day, YYYY-MM-DD. */
function isCalendarDay(text: string): boolean {
  const day = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
}

/** The contracts' query names of GET /admin/sipay/transactions; mapped to the interface's filters by salesQueryOf. */
export const SalesQuery = z
  .object({
    date: z
      .string({ error: "date is required (YYYY-MM-DD)" })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "date must be YYYY-MM-DD" })
      .refine(isCalendarDay, { error: "date must be an existing calendar day" }),
    invoice_id: z.preprocess(empty, z.string().trim().max(100).optional()),
    currency_id: integer("currency_id"),
    payment_method_id: integer("payment_method_id"),
    min_amount: amount("min_amount"),
    max_amount: amount("max_amount"),
    transaction_state: integer("transaction_state"),
    /** Only the ledger (the store's copy, paged and sorted by the database): asking the gateway is POST .../transactions/lookup. */
    source: z.preprocess(
      empty,
      z
        .string()
        .default("ledger")
        .refine((value) => value === "ledger", { error: "source must be ledger: the gateway look-up is POST /admin/sipay/transactions/lookup (a gateway call is never a GET)" })
        .transform(() => "ledger" as const)
    ),
    limit: z.preprocess(empty, z.string().regex(/^\d+$/, { error: "limit must be a whole number" }).transform(Number).refine((n) => n >= 1 && n <= 500, { error: "limit must be 1 to 500" }).default(50)),
    offset: z.preprocess(empty, z.string().regex(/^\d+$/, { error: "offset must be a whole number" }).transform(Number).default(0)),
    /** A sort field, descending with a leading "-": created_at (default -created_at), gross, state, invoice_id. */
    order: z.preprocess(empty, z.string().regex(/^-?(created_at|gross|state|invoice_id)$/, { error: "order must be created_at, gross, state or invoice_id, with - for descending" }).default("-created_at")),
  })
  .strict()
export type SalesQuery = z.infer<typeof SalesQuery>

/** The filters of a CSV export: those of the lookup, without paging. */
export const SalesExportQuery = SalesQuery.omit({ source: true, limit: true, offset: true, order: true })
export type SalesExportQuery = z.infer<typeof SalesExportQuery>

/**
 * POST /admin/sipay/transactions/lookup: the lookup's filters (as the GET's query names them), sent as
 * JSON; numbers may be JSON numbers. The gateway answers one day whole, so no paging.
 */
export const GatewayLookupBody = z.preprocess(
  (body) =>
    body && typeof body === "object" && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === "number" ? String(value) : value]))
      : body,
  SalesExportQuery
)
export type GatewayLookupBody = z.infer<typeof GatewayLookupBody>

/** POST /admin/sipay/transactions/sync: one day (default today), not in the future. */
export const SyncBody = z
  .object({
    date: z.preprocess(empty, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "date must be YYYY-MM-DD" }).refine(isCalendarDay, { error: "date must be an existing calendar day" }).optional()),
  })
  .strict()
export type SyncBody = z.infer<typeof SyncBody>
