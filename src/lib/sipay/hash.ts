import { isUtf8 } from "node:buffer"
import * as crypto from "node:crypto"

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

const IV_LENGTH = 16
const SALT_LENGTH = 4
/** Node >= 20.12 has a one-shot hash (no Hash object per digest); older 20.x falls back to createHash. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "buffer") => Buffer }).hash

function sha(algorithm: "sha1" | "sha256", text: string): Buffer {
  return oneShotHash ? oneShotHash(algorithm, text, "buffer") : crypto.createHash(algorithm).update(text, "utf8").digest()
}

/** sha1 hex of each secret: a process holds one or two secrets and hashes with them on every call. */
const secretDigests = new Map<string, string>()
const SECRET_DIGESTS_MAX = 64

function secretDigest(secret: string): string {
  let digest = secretDigests.get(secret)
  if (digest === undefined) {
    if (secretDigests.size >= SECRET_DIGESTS_MAX) secretDigests.clear()
    digest = sha("sha1", secret).toString("hex")
    secretDigests.set(secret, digest)
  }
  return digest
}

/** The reference truncates the 64-character sha256 hex to 32 bytes: the key is its first 32 ASCII characters. */
function deriveKey(secret: string, salt: string): Buffer {
  return Buffer.from(sha("sha256", secretDigest(secret) + salt).toString("hex", 0, 16), "latin1")
}

/**
 * Fresh random bytes as hex, served from a pool refilled by one randomBytes call per
 * RANDOM_POOL_BYTES (as node's randomUUID does): each byte is used once, then zeroed.
 */
const RANDOM_POOL_BYTES = 2048
let randomPool = Buffer.alloc(0)
let randomPoolAt = 0

function randomHex(characters: number): string {
  const bytes = characters / 2
  if (randomPoolAt + bytes > randomPool.length) {
    randomPool = crypto.randomBytes(RANDOM_POOL_BYTES)
    randomPoolAt = 0
  }
  const hex = randomPool.toString("hex", randomPoolAt, randomPoolAt + bytes)
  randomPool.fill(0, randomPoolAt, randomPoolAt + bytes)
  randomPoolAt += bytes
  return hex
}

function isPrintableAscii(text: string, length: number): boolean {
  if (text.length !== length) return false
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code > 0x7e) return false
  }
  return true
}

/** Standard base64 with its padding, nothing else (a key that is not is refused before decrypting). */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** True when a byte is a control character (C0 or DEL); UTF-8 never uses these bytes inside a longer character. */
function hasControlByte(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]
    if (byte < 0x20 || byte === 0x7f) return true
  }
  return false
}

/** Each part as String() writes it (null and undefined included, as the reference does), `|` between. */
function joinParts(parts: (string | number)[]): string {
  let data = parts.length ? String(parts[0]) : ""
  for (let i = 1; i < parts.length; i++) data += `|${String(parts[i])}`
  return data
}

export function generateHashKey(
  parts: (string | number)[],
  secret: string,
  options: HashKeyOptions = {}
): string {
  let { iv, salt } = options
  if (iv === undefined || salt === undefined) {
    // One draw for both: 16 hex characters of iv and 4 of salt.
    const random = randomHex(IV_LENGTH + SALT_LENGTH)
    iv ??= random.slice(0, IV_LENGTH)
    salt ??= random.slice(IV_LENGTH)
  }
  if (!isPrintableAscii(iv, IV_LENGTH)) {
    throw new Error("hash iv must be 16 printable ASCII characters")
  }
  if (salt.length === 0 || salt.includes(":")) {
    throw new Error("hash salt must be a non-empty string without ':'")
  }
  const cipher = crypto.createCipheriv("aes-256-cbc", deriveKey(secret, salt), Buffer.from(iv, "latin1"))
  const head = cipher.update(joinParts(parts), "utf8")
  const encrypted = Buffer.concat([head, cipher.final()]).toString("base64")
  const key = `${iv}:${salt}:${encrypted}`
  return key.includes("/") ? key.replaceAll("/", "__") : key
}

/** The decrypted parts, or null when the key does not decrypt cleanly (never "assumed valid"). */
export function validateHashKey(hashKey: string, secret: string): string[] | null {
  if (typeof hashKey !== "string" || hashKey.length === 0) {
    return null
  }
  // A key that travelled through a query string may have had its '+' turned into a space.
  let restored = hashKey.includes(" ") ? hashKey.replaceAll(" ", "+") : hashKey
  if (restored.includes("__")) restored = restored.replaceAll("__", "/")
  const first = restored.indexOf(":")
  const second = first < 0 ? -1 : restored.indexOf(":", first + 1)
  if (second < 0 || restored.indexOf(":", second + 1) >= 0) {
    return null
  }
  const iv = restored.slice(0, first)
  const salt = restored.slice(first + 1, second)
  const encrypted = restored.slice(second + 1)
  if (!isPrintableAscii(iv, IV_LENGTH) || salt.length === 0 || encrypted.length % 4 !== 0 || !BASE64.test(encrypted)) {
    return null
  }
  let plain: Buffer
  try {
    const decipher = crypto.createDecipheriv("aes-256-cbc", deriveKey(secret, salt), Buffer.from(iv, "latin1"))
    const head = decipher.update(Buffer.from(encrypted, "base64"))
    const tail = decipher.final()
    plain = tail.length ? Buffer.concat([head, tail]) : head
  } catch {
    return null
  }
  // A wrong key can still unpad by chance; real plaintexts are printable text.
  if (!isUtf8(plain) || hasControlByte(plain)) {
    return null
  }
  return plain.toString("utf8").split("|")
}
