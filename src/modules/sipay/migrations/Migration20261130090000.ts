import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { CUSTOMER_NUMBER_TABLE_SQL, DROP_CUSTOMER_NUMBER_TABLE_SQL } from "../../../lib/saved-cards/customer-numbers"

/** Hand-written (raw SQL from the providers' container): each customer's number at the gateway's card storage. */
export class Migration20261130090000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of CUSTOMER_NUMBER_TABLE_SQL) this.addSql(sql)
  }

  override async down(): Promise<void> {
    for (const sql of DROP_CUSTOMER_NUMBER_TABLE_SQL) this.addSql(sql)
  }
}
