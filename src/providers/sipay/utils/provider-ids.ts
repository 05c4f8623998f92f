/** The payment providers of this plugin (`pp_sipay_<id>`, `pp_sipay-2d_<id>`), whatever id the store registered it under. */
export const SIPAY_PROVIDER = /^pp_sipay(-2d)?_/
