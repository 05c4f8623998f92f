import { Module } from "@medusajs/framework/utils"
import SipayModuleService from "./service"
import setupChecksLoader from "./loaders/setup-checks"

export const SIPAY_MODULE = "sipay"

export default Module(SIPAY_MODULE, {
  service: SipayModuleService,
  loaders: [setupChecksLoader],
})

export { SipayModuleService }
