import { MedusaError } from "@medusajs/framework/utils"
import { SipayBase } from "../core/sipay-base"
import { SipayOptions } from "../../../lib/options"

/** Direct card payment (paySmart2D): card data passes through the store's server, so it is opt-in. */
export class Sipay2DProviderService extends SipayBase {
  static identifier = "sipay-2d"

  constructor(cradle: Record<string, unknown>, options: SipayOptions) {
    super(cradle, options)
  }

  protected assertEnabled(): void {
    if (!this.options_.enableDirectPayment) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        'Direct card payment is disabled: set the option "enableDirectPayment" to true to offer it'
      )
    }
  }
}
