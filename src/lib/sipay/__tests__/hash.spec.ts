import { readFileSync } from "node:fs"
import { join } from "node:path"
import { generateHashKey, validateHashKey } from "../hash"

type Vector = { source: string; secret: string; hash_key: string; plaintext: string }

function loadVectors(): Vector[] {
  const candidates = [
    join(__dirname, "../../../../../shared/vectors/hash-vectors.json"),
    join(__dirname, "fixtures/hash-vectors.json"),
  ]
  for (const file of candidates) {
    try {
      return JSON.parse(readFileSync(file, "utf8")).vectors
    } catch {
      // try the next location
    }
  }
  throw new Error("hash vectors not found")
}

const vectors = loadVectors()

describe("gateway hash key", () => {
  it.each(vectors.map((v) => [v.source, v] as const))("validates the published vector: %s", (_, vector) => {
    expect(validateHashKey(vector.hash_key, vector.secret)).toEqual(vector.plaintext.split("|"))
  })

  it.each(vectors.map((v) => [v.source, v] as const))("generates the published vector with its iv and salt: %s", (_, vector) => {
    const [iv, salt] = vector.hash_key.split(":")
    expect(generateHashKey(vector.plaintext.split("|"), vector.secret, { iv, salt })).toBe(vector.hash_key)
  })

  it("round-trips parts, empty parts kept between separators", () => {
    const parts = ["2024-01-02", "", "1", "", "10", "", ""]
    const key = generateHashKey(parts, "merchant-key-secret")
    expect(validateHashKey(key, "merchant-key-secret")).toEqual(parts)
  })

  it("uses a fresh random iv and salt each time", () => {
    const a = generateHashKey(["1", "TRY"], "s")
    const b = generateHashKey(["1", "TRY"], "s")
    expect(a).not.toBe(b)
    expect(a).toMatch(/^[0-9a-f]{16}:[0-9a-f]{4}:/)
  })

  it("never contains '/', which becomes '__'", () => {
    for (let i = 0; i < 200; i++) {
      expect(generateHashKey([String(i), "x".repeat(i % 40)], "secret")).not.toContain("/")
    }
  })

  it("rejects a wrong secret, a tampered or a truncated key", () => {
    const key = generateHashKey(["1", "20", "INV_1", "ORD", "TRY"], "right")
    expect(validateHashKey(key, "wrong")).toBeNull()
    const [iv, salt, body] = key.split(":")
    const flipped = body[5] === "A" ? "B" : "A"
    expect(validateHashKey(`${iv}:${salt}:${body.slice(0, 5)}${flipped}${body.slice(6)}`, "right")).toBeNull()
    expect(validateHashKey(key.slice(0, key.length - 6), "right")).toBeNull()
    expect(validateHashKey(`${iv}:${salt}`, "right")).toBeNull()
    expect(validateHashKey("", "right")).toBeNull()
    expect(validateHashKey("not-a-hash", "right")).toBeNull()
  })

  it("still validates a key whose '+' became a space in a query string", () => {
    const vector = vectors.find((v) => v.hash_key.includes("+"))!
    const mangled = vector.hash_key.replace(/\+/g, " ")
    expect(validateHashKey(mangled, vector.secret)).toEqual(vector.plaintext.split("|"))
  })

  it("accepts a salt of any length when validating", () => {
    const key = generateHashKey(["a", "b"], "s", { iv: "0123456789abcdef", salt: "abcde" })
    expect(validateHashKey(key, "s")).toEqual(["a", "b"])
  })
})
