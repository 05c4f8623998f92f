/** The product photo of a payment link, checked before it is sent to the gateway. Pure. */

export const PHOTO_MAX_BYTES = 2 * 1024 * 1024

export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const
export type PhotoType = (typeof PHOTO_TYPES)[number]

export type ProductPhoto = { data: Uint8Array; filename: string; contentType: string }

/** The image type the bytes themselves say (magic numbers), whatever the upload claimed. */
export function sniffImageType(data: Uint8Array): PhotoType | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte)
  const ascii = (offset: number, text: string) => [...text].every((char, index) => data[offset + index] === char.charCodeAt(0))
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg"
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png"
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif"
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp"
  return null
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** Why the photo cannot be sent, or null. The declared type must be an accepted one and match the bytes. */
export function findPhotoProblem(photo: ProductPhoto | null | undefined): string | null {
  if (!photo || !photo.data || photo.data.byteLength === 0) {
    return "A product photo is required (JPEG, PNG, WebP or GIF, at most 2 MB)"
  }
  if (photo.data.byteLength > PHOTO_MAX_BYTES) {
    return `The product photo is ${megabytes(photo.data.byteLength)}; at most ${megabytes(PHOTO_MAX_BYTES)} is accepted`
  }
  const declared = String(photo.contentType || "").toLowerCase().split(";")[0].trim()
  if (!(PHOTO_TYPES as readonly string[]).includes(declared)) {
    return `The product photo must be a JPEG, PNG, WebP or GIF image (got ${declared || "an unknown type"})`
  }
  const actual = sniffImageType(photo.data)
  if (!actual) {
    return `The product photo is declared as ${declared} but its content is not a JPEG, PNG, WebP or GIF image`
  }
  if (actual !== declared) {
    return `The product photo is declared as ${declared} but its content is ${actual}`
  }
  return null
}
