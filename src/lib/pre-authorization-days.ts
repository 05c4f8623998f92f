/** The gateway cancels a pre-authorization not completed within this many days. A leaf: the admin bundle imports it. */
export const PRE_AUTHORIZATION_DAYS = 20
