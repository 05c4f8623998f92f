import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { ATTEMPT_LOG_TABLE_SQL, DROP_ATTEMPT_LOG_TABLE_SQL } from "../../../lib/shared-state/database"

/**
 * Hand-written (not generated from models): the attempt log of the per-address limits, reached by raw
 * SQL from any container through PG_CONNECTION when the limits are counted in PostgreSQL.
 */
export class Migration20261126120000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of ATTEMPT_LOG_TABLE_SQL) this.addSql(sql)
  }

  override async down(): Promise<void> {
    for (const sql of DROP_ATTEMPT_LOG_TABLE_SQL) this.addSql(sql)
  }
}
