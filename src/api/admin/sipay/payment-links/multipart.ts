import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"

/** A file part of a multipart form, shaped as multer gives it (Medusa's upload routes use multer). */
export type UploadedFile = { fieldname: string; originalname: string; mimetype: string; size: number; buffer: Buffer }

const FORM_LIMIT_BYTES = 6 * 1024 * 1024

/**
 * Reads a multipart/form-data body into req.body (text fields) and req.files (file parts), with
 * Node's own form parser (no extra dependency). Other content types pass untouched.
 */
export function readMultipartForm(limitBytes = FORM_LIMIT_BYTES) {
  return async function multipartForm(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
    const contentType = String(req.headers["content-type"] ?? "")
    if (!/^multipart\/form-data/i.test(contentType)) {
      return next()
    }
    try {
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of req as unknown as AsyncIterable<Buffer>) {
        size += chunk.length
        if (size > limitBytes) {
          throw new MedusaError(MedusaError.Types.INVALID_DATA, `The form is larger than ${limitBytes / (1024 * 1024)} MB; the product photo may be at most 2 MB`)
        }
        chunks.push(chunk)
      }
      const form = await new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": contentType },
        body: Buffer.concat(chunks),
      }).formData()
      const fields: Record<string, string> = {}
      const files: UploadedFile[] = []
      for (const [name, value] of form.entries()) {
        if (typeof value === "string") {
          fields[name] = value
        } else {
          const buffer = Buffer.from(await value.arrayBuffer())
          files.push({ fieldname: name, originalname: value.name, mimetype: value.type, size: buffer.length, buffer })
        }
      }
      req.body = fields
      ;(req as MedusaRequest & { files?: UploadedFile[] }).files = files
      next()
    } catch (error) {
      next(error instanceof MedusaError ? error : new MedusaError(MedusaError.Types.INVALID_DATA, `The form could not be read: ${(error as Error).message}`))
    }
  }
}

export function uploadedFile(req: MedusaRequest, fieldname: string): UploadedFile | undefined {
  return (req as MedusaRequest & { files?: UploadedFile[] }).files?.find((file) => file.fieldname === fieldname)
}
