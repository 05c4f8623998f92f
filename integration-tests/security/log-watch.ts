import type { MedusaContainer } from "@medusajs/framework/types"
import { TEST_CARDS } from "../../src/sandbox/cards"
import { captureProcessOutput, type OutputCapture } from "../harness/secrets"
import { DECLINING_CARD, PAYING_CARD } from "../harness/shopper"

/**
 * What the app writes while a security file runs, and the secrets that must never be in it. The suite
 * runs the app with NODE_ENV=production: Medusa then writes its request log (a JSON line per request,
 * the URL with its query string) to stdout, which it does not do at all under NODE_ENV=test. Both
 * stdout/stderr and the app's logger are captured; a file's run ends with the scan of all of it.
 */

type Secrets = { cards: Set<string>; cvvs: Set<string>; tokens: Set<string> }

let capture: OutputCapture | undefined
let tappedLogger: unknown
const secrets: Secrets = {
  // Every card the sandbox knows and the harness pays with; each card an attack sends is added (send()).
  cards: new Set([...TEST_CARDS.map((card) => card.number), PAYING_CARD.cc_no, DECLINING_CARD.cc_no]),
  cvvs: new Set([PAYING_CARD.cvv]),
  tokens: new Set(),
}

export function startLogWatch(): void {
  capture ??= captureProcessOutput()
}

export function stopLogWatch(): void {
  capture?.stop()
  capture = undefined
  tappedLogger = undefined
}

/** Taps the booted app's logger (once per app). */
export function watchLogger(container: MedusaContainer): void {
  const logger = container.resolve("logger") as unknown as Record<string, unknown>
  if (capture && tappedLogger !== logger) {
    capture.tapLogger(logger)
    tappedLogger = logger
  }
}

/** How much has been written so far: `logSince(mark)` is what came after. */
export function logMark(): number {
  return capture?.text().length ?? 0
}

/** What the app wrote since `mark`, after letting the request log of the last answers land. */
export async function logSince(mark: number): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 50))
  return capture?.text().slice(mark) ?? ""
}

export function logText(): string {
  return capture?.text() ?? ""
}

export function rememberCard(number: unknown, cvv?: unknown): void {
  const digits = String(number ?? "").replace(/\D/g, "")
  if (digits.length >= 12) secrets.cards.add(digits)
  if (typeof cvv === "string" || typeof cvv === "number") {
    if (/^\d{3,4}$/.test(String(cvv))) secrets.cvvs.add(String(cvv))
  }
}

export function rememberToken(token: unknown): void {
  if (typeof token === "string" && token.length >= 20) secrets.tokens.add(token)
}

/** The hosted page's token in an address the store API handed out (`#token=` or `?token=`). */
export function tokenOfHostedPageUrl(url: string): string | null {
  const parsed = new URL(url)
  return new URLSearchParams(parsed.hash.replace(/^#/, "")).get("token") ?? parsed.searchParams.get("token")
}

/** Remembers the card fields of a request body (a direct payment's `card`, a 3D post's `cc_no`/`cvv`). */
export function rememberBody(body: unknown): void {
  if (!body || typeof body !== "object") return
  const record = body as Record<string, unknown>
  if (record.card && typeof record.card === "object") {
    const card = record.card as Record<string, unknown>
    rememberCard(card.number, card.cvv)
  }
  if ("cc_no" in record) rememberCard(record.cc_no, record.cvv)
}

/** A hosted-page token's shape (`<expiry base36>.<43 base64url>`), standing alone in the text. */
const TOKEN_SHAPE = /(?<![A-Za-z0-9_.-])[0-9a-z]{5,12}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_.-])/g

/**
 * Every card number (or its first 10 digits), CVV or hosted-page token in `text`. A CVV is a few digits
 * that appear everywhere in a log (timestamps, sizes), so it counts when it stands next to "cvv" or
 * quoted on its own ('123', "123"), as a validator's message or a logged body shows it.
 */
export function secretsIn(text: string): string[] {
  const found: string[] = []
  for (const card of secrets.cards) {
    if (text.includes(card)) found.push(`card number ${card.slice(0, 4)}…${card.slice(-2)}`)
    else if (text.includes(card.slice(0, 10))) found.push(`the first 10 digits of card ${card.slice(0, 4)}…${card.slice(-2)}`)
  }
  for (const cvv of secrets.cvvs) {
    const near = new RegExp(`cvv[^\\n]{0,40}?(?<!\\d)${cvv}(?!\\d)|'${cvv}'|"${cvv}"`, "i")
    if (near.test(text)) found.push(`CVV ${cvv}`)
  }
  for (const token of secrets.tokens) {
    if (text.includes(token) || text.includes(encodeURIComponent(token))) found.push(`hosted-page token ${token.slice(0, 6)}…`)
  }
  for (const match of text.matchAll(TOKEN_SHAPE)) {
    const label = `a hosted-page token (${match[0].slice(0, 6)}…)`
    if (!found.some((entry) => entry.includes(match[0].slice(0, 6)))) found.push(label)
  }
  return [...new Set(found)]
}

/** Lines of `text` holding a secret, shortened, for a report that must not repeat the secret. */
export function linesWithSecrets(text: string): number {
  return text.split("\n").filter((line) => secretsIn(line).length > 0).length
}
