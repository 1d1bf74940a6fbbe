/**
 * Request headers every call may carry (spec section 7), named once for server and client.
 * The tenant header only selects among the caller's verified memberships.
 */
export const API_HEADERS = {
  authorization: 'Authorization',
  tenant: 'X-Tenant-Id',
  clientDetails: 'X-Client-Details',
  acceptLanguage: 'Accept-Language',
  /**
   * `cookie`: the browser app asks for the refresh token as an httpOnly cookie instead of in the
   * JSON answer, so no script (an XSS included) ever holds it. Without it, API clients get it in
   * the body as before.
   */
  tokenTransport: 'X-Pakt-Token-Transport',
} as const;

/** The value of API_HEADERS.tokenTransport that moves the refresh token into a cookie. */
export const COOKIE_TOKEN_TRANSPORT = 'cookie';
