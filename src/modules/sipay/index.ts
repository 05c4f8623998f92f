import { Module } from "@medusajs/framework/utils"
import SipayModuleService from "./service"

export const SIPAY_MODULE = "sipay"

export default Module(SIPAY_MODULE, {
  service: SipayModuleService,
})

export { SipayModuleService }
