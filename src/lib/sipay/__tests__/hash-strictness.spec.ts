import { createCipheriv, createDecipheriv, createHash } from "node:crypto"
import { generateHashKey, validateHashKey } from "../hash"

/**
 * The hash was rewritten for speed (one random draw, a per-secret sha1, no regex per byte). These
 * tests hold it to the straightforward reading of the reference: the same keys for the same iv and
 * salt, and the same answer (parts or null) for every key, good or damaged.
 */

/** The reference, written plainly: what generateHashKey and validateHashKey must agree with. */
const reference = {
  key(secret: string, salt: string): Buffer {
    const sha1 = createHash("sha1").update(secret, "utf8").digest("hex")
    return Buffer.from(createHash("sha256").update(sha1 + salt, "utf8").digest("hex").slice(0, 32), "ascii")
  },
  generate(parts: (string | number)[], secret: string, iv: string, salt: string): string {
    const cipher = createCipheriv("aes-256-cbc", reference.key(secret, salt), Buffer.from(iv, "ascii"))
    const data = parts.map((part) => String(part)).join("|")
    const encrypted = Buffer.concat([cipher.update(data, "utf8"), cipher.final()]).toString("base64")
    return `${iv}:${salt}:${encrypted}`.replace(/\//g, "__")
  },
  validate(hashKey: string, secret: string): string[] | null {
    if (typeof hashKey !== "string" || hashKey.length === 0) return null
    const pieces = hashKey.replace(/ /g, "+").replace(/__/g, "/").split(":")
    if (pieces.length !== 3) return null
    const [iv, salt, encrypted] = pieces
    if (Buffer.byteLength(iv, "ascii") !== 16 || !/^[\x20-\x7e]{16}$/.test(iv) || salt.length === 0) return null
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted) || encrypted.length % 4 !== 0) return null
    try {
      const decipher = createDecipheriv("aes-256-cbc", reference.key(secret, salt), Buffer.from(iv, "ascii"))
      const plain = Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()])
      const text = plain.toString("utf8")
      if (!Buffer.from(text, "utf8").equals(plain) || /[\x00-\x1f\x7f]/.test(text)) return null
      return text.split("|")
    } catch {
      return null
    }
  },
}

/** A small seeded generator, so a failure names a case that can be run again. */
function seeded(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] }
}

const BASE64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const ODD_CHARS = [" ", "_", "__", ":", "=", "==", "é", "\u0000", "\u007f", "-", "%2B", "\n", "ğ"]
const SECRETS = ["61d97b2cac247069495be4b16f8604db", "bench-app-secret-0001", "şifre-ğüç", "x"]

function sampleParts(random: ReturnType<typeof seeded>): string[] {
  const words = ["150.75", "1", "TRY", "", "INV_1", "Ayşe Yılmaz", "ödeme", "a|b", "2026-11-23 10:00:00", "€", "🙂", "x".repeat(40)]
  return Array.from({ length: 1 + random.int(7) }, () => random.pick(words))
}

/** One damage of a key: a character replaced, removed or added, the key cut, or a piece emptied. */
function damage(key: string, random: ReturnType<typeof seeded>): string {
  const at = random.int(key.length)
  switch (random.int(6)) {
    case 0:
      return key.slice(0, at) + random.pick(BASE64_CHARS.split("")) + key.slice(at + 1)
    case 1:
      return key.slice(0, at) + key.slice(at + 1)
    case 2:
      return key.slice(0, at) + random.pick(ODD_CHARS) + key.slice(at)
    case 3:
      return key.slice(0, at)
    case 4:
      return key.slice(0, at) + random.pick(ODD_CHARS) + key.slice(at + 1)
    default: {
      const pieces = key.split(":")
      pieces[random.int(pieces.length)] = ""
      return pieces.join(":")
    }
  }
}

describe("gateway hash key: same answers as the reference", () => {
  it("generates the reference's key for the same parts, secret, iv and salt (400 cases, salts of any length)", () => {
    const random = seeded(16)
    for (let n = 0; n < 400; n++) {
      const parts = sampleParts(random)
      const secret = random.pick(SECRETS)
      const iv = Array.from({ length: 16 }, () => String.fromCharCode(0x20 + random.int(0x5f))).join("").replace(/:/g, ".")
      const salt = Array.from({ length: 1 + random.int(6) }, () => random.pick("0123456789abcdef_ +".split(""))).join("")
      expect(generateHashKey(parts, secret, { iv, salt })).toBe(reference.generate(parts, secret, iv, salt))
    }
  })

  it("answers exactly as the reference for 4,000 damaged keys and for every key under a wrong secret", () => {
    const random = seeded(17)
    let refused = 0
    for (let n = 0; n < 4000; n++) {
      const secret = random.pick(SECRETS)
      let key = generateHashKey(sampleParts(random), secret)
      const rounds = 1 + random.int(3)
      for (let d = 0; d < rounds; d++) key = damage(key, random)
      const expected = reference.validate(key, secret)
      if (expected === null) refused++
      expect({ key, answer: validateHashKey(key, secret) }).toEqual({ key, answer: expected })
      const wrong = SECRETS[(SECRETS.indexOf(secret) + 1) % SECRETS.length]
      expect({ key, answer: validateHashKey(key, wrong) }).toEqual({ key, answer: reference.validate(key, wrong) })
    }
    // Most damage is caught; the comparison above covered both outcomes.
    expect(refused).toBeGreaterThan(3000)
    expect(refused).toBeLessThan(4000)
  })

  it("refuses plaintexts that are not printable UTF-8 text, as the reference does", () => {
    const secret = "bench-app-secret-0001"
    const iv = "0123456789abcdef"
    const salt = "a1b2"
    const encrypt = (plain: Buffer) => {
      const cipher = createCipheriv("aes-256-cbc", reference.key(secret, salt), Buffer.from(iv, "ascii"))
      return `${iv}:${salt}:${Buffer.concat([cipher.update(plain), cipher.final()]).toString("base64")}`.replace(/\//g, "__")
    }
    const cases: [string, Buffer][] = [
      ["invalid UTF-8", Buffer.from([0x31, 0x7c, 0xff, 0x32])],
      ["a lone continuation byte", Buffer.from([0x31, 0x80])],
      ["an encoded surrogate", Buffer.from([0xed, 0xa0, 0x80])],
      ["an overlong slash", Buffer.from([0xc0, 0xaf])],
      ["a newline", Buffer.from("1|2\n3")],
      ["a NUL", Buffer.from("1|\u00002")],
      ["DEL", Buffer.from("1|\u007f")],
      ["U+FFFD written out", Buffer.from("1|\ufffd")],
      ["Turkish and emoji", Buffer.from("Ayşe|🙂|ödeme")],
      ["empty", Buffer.alloc(0)],
    ]
    for (const [name, plain] of cases) {
      const key = encrypt(plain)
      expect({ name, answer: validateHashKey(key, secret) }).toEqual({ name, answer: reference.validate(key, secret) })
    }
    expect(validateHashKey(encrypt(Buffer.from("Ayşe|🙂|ödeme")), secret)).toEqual(["Ayşe", "🙂", "ödeme"])
    expect(validateHashKey(encrypt(Buffer.from([0x31, 0x7c, 0xff, 0x32])), secret)).toBeNull()
    expect(validateHashKey(encrypt(Buffer.from("1|2\n3")), secret)).toBeNull()
  })

  it("refuses an iv that is not 16 printable ASCII characters, when generating and when validating", () => {
    const key = generateHashKey(["1", "TRY"], "s", { iv: "0123456789abcdef", salt: "ab" })
    for (const iv of ["0123456789abcde", "0123456789abcdef0", "0123456789abcdé", "0123456789abcd\tf"]) {
      expect(() => generateHashKey(["1"], "s", { iv, salt: "ab" })).toThrow("hash iv must be 16 printable ASCII characters")
      expect(validateHashKey(key.replace("0123456789abcdef", iv), "s")).toBeNull()
    }
    expect(() => generateHashKey(["1"], "s", { iv: "0123456789abcdef", salt: "" })).toThrow("hash salt")
    expect(() => generateHashKey(["1"], "s", { iv: "0123456789abcdef", salt: "a:b" })).toThrow("hash salt")
  })
})

describe("gateway hash key: the fast paths", () => {
  it("draws a fresh iv and salt for every key, across many refills of the random pool", () => {
    const seen = new Set<string>()
    for (let n = 0; n < 3000; n++) {
      const [iv, salt] = generateHashKey(["1"], "s").split(":")
      expect(iv).toMatch(/^[0-9a-f]{16}$/)
      expect(salt).toMatch(/^[0-9a-f]{4}$/)
      seen.add(iv)
    }
    expect(seen.size).toBe(3000)
  })

  it("keeps one secret's derived state apart from another's, also after the per-secret cache fills and is emptied", () => {
    const secrets = Array.from({ length: 150 }, (_, n) => `secret-${n}`)
    const keys = secrets.map((secret, n) => generateHashKey([String(n), "TRY"], secret))
    secrets.forEach((secret, n) => {
      expect(validateHashKey(keys[n], secret)).toEqual([String(n), "TRY"])
      expect(validateHashKey(keys[n], secrets[(n + 1) % secrets.length])).toEqual(reference.validate(keys[n], secrets[(n + 1) % secrets.length]))
      expect(reference.validate(keys[n], secret)).toEqual([String(n), "TRY"])
    })
  })
})
