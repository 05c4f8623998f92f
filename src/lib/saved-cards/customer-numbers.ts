import { randomInt } from "node:crypto"
import { rowsOf, type SharedStateDatabase } from "../shared-state/database"

/**
 * The gateway stores cards per merchant and numeric customer_number. Each Medusa customer gets one,
 * once (both providers' account holders share it), kept in a table the providers reach by raw SQL.
 * Numbers are random 16-digit integers (within JavaScript's safe range, as sipay-node sends them),
 * never a sequence: a database restored from a backup, or a test database reset between tests, must
 * not hand an issued number (and its cards at the gateway) to another customer.
 */

export const CUSTOMER_NUMBER_TABLE_SQL = [
  `create table if not exists "sipay_customer_number" ("customer_id" text not null, "customer_number" bigint not null, "created_at" timestamptz not null default now(), constraint "sipay_customer_number_pkey" primary key ("customer_id"), constraint "sipay_customer_number_number_unique" unique ("customer_number"));`,
]

export const DROP_CUSTOMER_NUMBER_TABLE_SQL = [`drop table if exists "sipay_customer_number";`]

/** 1000000000000000 to 8999999999999999. */
export function randomCustomerNumber(): string {
  return String(BigInt(randomInt(1_000_000, 9_000_000)) * 1_000_000_000n + BigInt(randomInt(0, 1_000_000_000)))
}

export async function customerNumberOf(db: SharedStateDatabase, customerId: string): Promise<string | null> {
  const answer = await db.raw(`select "customer_number" from "sipay_customer_number" where "customer_id" = ?`, [customerId])
  const [row] = rowsOf<{ customer_number: string | number }>(answer)
  return row ? String(row.customer_number) : null
}

/** The customer's number, allocated on first use; concurrent first uses agree on one. */
export async function allocateCustomerNumber(db: SharedStateDatabase, customerId: string, draw: () => string = randomCustomerNumber): Promise<string> {
  for (let tries = 0; tries < 5; tries++) {
    const known = await customerNumberOf(db, customerId)
    if (known) {
      return known
    }
    // A clash with another customer's number (or a concurrent first use) inserts nothing: read again, draw again.
    await db.raw(`insert into "sipay_customer_number" ("customer_id", "customer_number") values (?, ?) on conflict do nothing`, [customerId, draw()])
  }
  const known = await customerNumberOf(db, customerId)
  if (!known) {
    throw new Error(`no customer number could be allocated for ${customerId}`)
  }
  return known
}
