/**
 * Request headers every call may carry (spec section 7), named once for server and client.
 * The tenant header only selects among the caller's verified memberships.
 */
export const API_HEADERS = {
  authorization: 'Authorization',
  tenant: 'X-Tenant-Id',
  clientDetails: 'X-Client-Details',
  acceptLanguage: 'Accept-Language',
} as const;
