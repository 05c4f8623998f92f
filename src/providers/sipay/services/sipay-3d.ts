import { SipayBase } from "../core/sipay-base"
import { SipayOptions } from "../../../lib/options"

/** Card payment with 3D verification: the shopper's browser posts the card to the gateway (paySmart3D). */
export class Sipay3DProviderService extends SipayBase {
  static identifier = "sipay"

  constructor(cradle: Record<string, unknown>, options: SipayOptions) {
    super(cradle, options)
  }
}
