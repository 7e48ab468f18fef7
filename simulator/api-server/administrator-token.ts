/**
 * The bearer token the simulation's own clients send when given none: the cluster's
 * administrator's, which an authenticator either leaves unchecked or knows in `system:masters`.
 */
export const ADMINISTRATOR_TOKEN = 'test-token';
