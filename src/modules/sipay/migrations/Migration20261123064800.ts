import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { DROP_SHARED_STATE_TABLES_SQL, SHARED_STATE_TABLES_SQL } from "../../../lib/shared-state/database"

/**
 * Hand-written (not generated from models): the tables the shared state reaches by raw SQL from any
 * container through PG_CONNECTION, the shared gateway token and the rate-limit counters.
 */
export class Migration20261123064800 extends Migration {
  override async up(): Promise<void> {
    for (const sql of SHARED_STATE_TABLES_SQL) this.addSql(sql)
  }

  override async down(): Promise<void> {
    for (const sql of DROP_SHARED_STATE_TABLES_SQL) this.addSql(sql)
  }
}
