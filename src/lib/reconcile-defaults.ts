/** Attempts pending this long are asked about by the reconciliation job (option reconcileAfterSeconds). */
export const DEFAULT_RECONCILE_AFTER_SECONDS = 60
/** Every minute: with the 60 s age, a payment whose redirect and webhook were lost is settled 1-2 minutes after it was made. */
export const DEFAULT_RECONCILE_SCHEDULE = "* * * * *"
/** The longest pause between two looks of the job at one attempt (its back-off grows with its age up to this). */
export const RECONCILE_MAX_INTERVAL_SECONDS = 3600
