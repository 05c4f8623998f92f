import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handleThreeDRedirect } from "../handle-redirect"

export const AUTHENTICATE = false

export const GET = async (req: MedusaRequest, res: MedusaResponse) => handleThreeDRedirect(req, res)
export const POST = async (req: MedusaRequest, res: MedusaResponse) => handleThreeDRedirect(req, res)
