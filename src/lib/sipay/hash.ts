import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

/**
 * The gateway's hash_key: AES-256-CBC over the `|`-joined parts, keyed from the secret and a salt.
 * Byte-compatible with the reference (PHP openssl) implementation, see docs/gateway-reference.md.
 */

export type HashKeyOptions = {
  /** 16 characters used as the 16 ASCII bytes of the IV (not hex-decoded). */
  iv?: string
  /** Any short string; the gateway uses 4 hex characters. */
  salt?: string
}

function sha1Hex(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex")
}

/** The reference truncates the 64-character sha256 hex to 32 bytes: the key is its first 32 ASCII characters. */
function deriveKey(secret: string, salt: string): Buffer {
  const digest = createHash("sha256").update(sha1Hex(secret) + salt, "utf8").digest("hex")
  return Buffer.from(digest.slice(0, 32), "ascii")
}

function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2)).toString("hex").slice(0, length)
}

export function generateHashKey(
  parts: (string | number)[],
  secret: string,
  options: HashKeyOptions = {}
): string {
  const iv = options.iv ?? randomHex(16)
  const salt = options.salt ?? randomHex(4)
  if (Buffer.byteLength(iv, "ascii") !== 16 || !/^[\x20-\x7e]{16}$/.test(iv)) {
    throw new Error("hash iv must be 16 printable ASCII characters")
  }
  if (salt.includes(":") || salt.length === 0) {
    throw new Error("hash salt must be a non-empty string without ':'")
  }
  const data = parts.map((part) => String(part)).join("|")
  const cipher = createCipheriv("aes-256-cbc", deriveKey(secret, salt), Buffer.from(iv, "ascii"))
  const encrypted = Buffer.concat([cipher.update(data, "utf8"), cipher.final()]).toString("base64")
  return `${iv}:${salt}:${encrypted}`.replace(/\//g, "__")
}

/** The decrypted parts, or null when the key does not decrypt cleanly (never "assumed valid"). */
export function validateHashKey(hashKey: string, secret: string): string[] | null {
  if (typeof hashKey !== "string" || hashKey.length === 0) {
    return null
  }
  // A key that travelled through a query string may have had its '+' turned into a space.
  const restored = hashKey.replace(/ /g, "+").replace(/__/g, "/")
  const pieces = restored.split(":")
  if (pieces.length !== 3) {
    return null
  }
  const [iv, salt, encrypted] = pieces
  if (Buffer.byteLength(iv, "ascii") !== 16 || !/^[\x20-\x7e]{16}$/.test(iv) || salt.length === 0) {
    return null
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted) || encrypted.length % 4 !== 0) {
    return null
  }
  try {
    const decipher = createDecipheriv("aes-256-cbc", deriveKey(secret, salt), Buffer.from(iv, "ascii"))
    const plain = Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()])
    const text = plain.toString("utf8")
    // A wrong key can still unpad by chance; real plaintexts are printable text.
    if (!Buffer.from(text, "utf8").equals(plain) || /[\x00-\x1f\x7f]/.test(text)) {
      return null
    }
    return text.split("|")
  } catch {
    return null
  }
}
