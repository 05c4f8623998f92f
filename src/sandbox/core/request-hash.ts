import { validateHashKey } from "../../lib/sipay/hash"
import { parseAmount } from "./amounts"
import { CODES, fail, requireField } from "./codes"

/**
 * Checks a request's hash_key against the parts it must sign, in order. A hash that does not
 * decrypt, or signs other data, answers 90; a signed amount (at amountIndex) that differs
 * numerically from the request's answers 68.
 */
export function requireRequestHash(body: Record<string, unknown>, secret: string, expected: string[], amountIndex = -1): void {
  const parts = validateHashKey(requireField(body, "hash_key"), secret)
  if (!parts || parts.length !== expected.length) fail(CODES.INVALID_HASH, "Invalid hash key.")
  parts.forEach((part, index) => {
    if (index === amountIndex) {
      const signed = parseAmount(part)
      if (signed === null || signed !== parseAmount(expected[index])) fail(CODES.TOTAL_HASH_MISMATCH, "The amount does not match the amount in the hash key.")
    } else if (part !== expected[index]) {
      fail(CODES.INVALID_HASH, "Invalid hash key: the signed data does not match the request.")
    }
  })
}
