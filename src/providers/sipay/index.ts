import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { Sipay2DProviderService } from "./services/sipay-2d"
import { Sipay3DProviderService } from "./services/sipay-3d"

export default ModuleProvider(Modules.PAYMENT, {
  services: [Sipay3DProviderService, Sipay2DProviderService],
})

export { Sipay2DProviderService, Sipay3DProviderService }
