/** The setup command's arguments, passed to the script `medusa exec` runs through the environment. */

export const SETUP_ARGS_ENV = "SIPAY_SETUP_ARGS"

export type SetupArgs = {
  /** false: only show what would change. */
  apply: boolean
  /** Percent of the TR tax region created when none exists (KDV). */
  taxRate: number
  /** Price in TRY of the shipping option created when none reaches Türkiye. */
  shippingPrice: number
  /** Make a test cart over the running store's API and print its hosted card page's address (changes no setup). */
  testOrder?: boolean
  help?: boolean
}

export const DEFAULT_SETUP_ARGS: SetupArgs = { apply: false, taxRate: 20, shippingPrice: 0 }

export function parseSetupArgs(argv: string[]): SetupArgs {
  const args: SetupArgs = { ...DEFAULT_SETUP_ARGS }
  for (const arg of argv) {
    const [name, value] = arg.split("=", 2)
    if (name === "--apply") {
      args.apply = true
    } else if (name === "--test-order") {
      args.testOrder = true
    } else if (name === "--help" || name === "-h") {
      args.help = true
    } else if (name === "--tax-rate" || name === "--shipping-price") {
      const number = Number(value)
      if (value === undefined || value === "" || !Number.isFinite(number) || number < 0) {
        throw new Error(`${name} needs a number, e.g. ${name}=20`)
      }
      if (name === "--tax-rate") {
        args.taxRate = number
      } else {
        args.shippingPrice = number
      }
    } else {
      throw new Error(`unknown argument "${arg}" (--apply, --tax-rate=N, --shipping-price=N, --test-order)`)
    }
  }
  return args
}

export function setupArgsFromEnv(env: NodeJS.ProcessEnv = process.env): SetupArgs {
  const raw = env[SETUP_ARGS_ENV]
  return raw ? { ...DEFAULT_SETUP_ARGS, ...(JSON.parse(raw) as Partial<SetupArgs>) } : { ...DEFAULT_SETUP_ARGS }
}
