/** The sandbox's card table: the gateway's published test cards and documented outcome cards. Any other number is refused (102). */

export type CardOutcome = "success" | "insufficient_funds" | "3d_failure" | "pos_not_defined" | "blocked"

export type TestCard = {
  number: string
  scheme: "VISA" | "MASTERCARD" | "TROY"
  card_type: "CREDIT CARD"
  program: string
  bank: string
  outcome: CardOutcome
  /** What happens, for the docs and the CLI. */
  description: string
  /** Installment counts the card's program allows (intersected with the merchant's). */
  installments: number[]
  /** Agricultural (tarim) terms offered by /api/installments for this card's BIN. */
  agricultural?: { maturity_period: number[]; payment_frequency: number[] }
  /** A recurring plan's later charges on this card: declined on the first try (retried a day later), or on every try. */
  laterCharges?: LaterCharges
}

export type LaterCharges = "decline_once" | "decline_always"

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]

/** The SMS code the bank page accepts (shown on the page). */
export const SMS_TEST_CODE = "283126"

export const TEST_CARDS: TestCard[] = [
  { number: "4508034508034509", scheme: "VISA", card_type: "CREDIT CARD", program: "WORLD", bank: "Sandbox Bank", outcome: "success", installments: ALL, description: "Published test card (Visa): succeeds" },
  { number: "5406675406675403", scheme: "MASTERCARD", card_type: "CREDIT CARD", program: "BONUS", bank: "Sandbox Bank", outcome: "success", installments: ALL, description: "Published test card (MasterCard): succeeds" },
  { number: "6501700139082826", scheme: "TROY", card_type: "CREDIT CARD", program: "PARAF", bank: "Sandbox Bank", outcome: "success", installments: ALL, description: "Published test card (Troy): succeeds" },
  { number: "4000000200000000", scheme: "VISA", card_type: "CREDIT CARD", program: "AXESS", bank: "Sandbox Bank", outcome: "insufficient_funds", installments: ALL, description: "Declined: insufficient funds (41)" },
  { number: "5355760000000009", scheme: "MASTERCARD", card_type: "CREDIT CARD", program: "MAXIMUM", bank: "Sandbox Bank", outcome: "3d_failure", installments: ALL, description: "3D authentication always fails on the bank page (41, md_status 0); succeeds in 2D" },
  { number: "4090700000000008", scheme: "VISA", card_type: "CREDIT CARD", program: "CARD_FNS", bank: "Sandbox Bank", outcome: "pos_not_defined", installments: ALL, description: "Pos was not defined (102, order_no null, credit_card_no null); getpos answers 102" },
  { number: "5456160000000000", scheme: "MASTERCARD", card_type: "CREDIT CARD", program: "ADVANT", bank: "Sandbox Bank", outcome: "blocked", installments: ALL, description: "Declined: card blocked (44)" },
  { number: "4155140000000009", scheme: "VISA", card_type: "CREDIT CARD", program: "WORLD", bank: "Sandbox Bank", outcome: "success", laterCharges: "decline_once", installments: ALL, description: "Succeeds; each later recurring charge is declined once (insufficient funds) and succeeds on the retry a day later" },
  { number: "4155150000000008", scheme: "VISA", card_type: "CREDIT CARD", program: "WORLD", bank: "Sandbox Bank", outcome: "success", laterCharges: "decline_always", installments: ALL, description: "Succeeds; later recurring charges are always declined: after 3 tries the plan stops" },
  {
    number: "9792090000000004", scheme: "TROY", card_type: "CREDIT CARD", program: "TARIM", bank: "Sandbox Agricultural Bank", outcome: "success", installments: [1],
    agricultural: { maturity_period: [3, 6, 9, 12], payment_frequency: [1, 3, 6] },
    description: "Agricultural card: installments offers maturity_period/payment_frequency; payments must send both",
  },
]

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

export function findCard(number: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.number === number)
}

export function findCardByBin(bin: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.number.startsWith(bin))
}

/** 6 + **** + 4, as the gateway masks card numbers. */
export function maskCard(number: string): string {
  return `${number.slice(0, 6)}****${number.slice(-4)}`
}
