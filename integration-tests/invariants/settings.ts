import type fc from "fast-check"

/**
 * How many sequences, from which seed: the bounded CI set by default (a fixed seed, so a CI run is
 * reproducible), or what `npm run invariants -- --seed S --runs N [--path P]` passes in the environment.
 */
export const CI_SEED = 20261126
export const CI_RUNS = 32

export function runSettings(env: NodeJS.ProcessEnv = process.env) {
  const seed = env.INVARIANT_SEED ? Number(env.INVARIANT_SEED) : CI_SEED
  const numRuns = env.INVARIANT_RUNS ? Number(env.INVARIANT_RUNS) : CI_RUNS
  const path = env.INVARIANT_PATH || undefined
  const maxCommands = env.INVARIANT_MAX_COMMANDS ? Number(env.INVARIANT_MAX_COMMANDS) : 28
  if (!Number.isInteger(seed) || !Number.isInteger(numRuns) || numRuns < 1 || !Number.isInteger(maxCommands) || maxCommands < 1) {
    throw new Error("INVARIANT_SEED, INVARIANT_RUNS and INVARIANT_MAX_COMMANDS must be whole numbers (runs and commands at least 1)")
  }
  // The sequences of a run share one app: a shrunk sequence re-runs on the state the failure left
  // behind, so the report gives the first failing sequence as it ran too, and shrinking has a budget
  // (3 minutes in CI; `npm run invariants` replays the shrunk sequence on a fresh app).
  const shrinkBudgetMs = Number(env.INVARIANT_SHRINK_BUDGET_MS ?? 3 * 60 * 1000)
  const parameters: fc.Parameters<[unknown]> = {
    seed,
    numRuns: path ? 1 : numRuns,
    path,
    endOnFailure: env.INVARIANT_SHRINK === "false",
    interruptAfterTimeLimit: Number(env.INVARIANT_TIME_LIMIT_MS ?? 20 * 60 * 1000),
    markInterruptAsFailure: false,
  }
  return { seed, numRuns, maxCommands, shrinkBudgetMs, parameters, describe: path ? `seed ${seed}, path ${path}` : `seed ${seed}, ${numRuns} runs of up to ${maxCommands} commands` }
}
