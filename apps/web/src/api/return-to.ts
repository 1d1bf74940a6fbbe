/**
 * Coming back after signing in: a page that needs a session (/sign?ePakId=…, /workflows, any guarded
 * route) sends the person to
 * /login?returnTo=<that page>, and sign-in (or its two-factor step) takes them back there. The
 * address comes from the query string, which anyone can write into a link, so only a path of this
 * app is ever followed: never another origin (an open redirect would lend our sign-in page to a
 * phishing site), nor a scheme such as javascript:, nor the sign-in pages themselves.
 */
export const RETURN_TO_PARAM = 'returnTo';

/** Any origin will do: a path that resolves against it to the same origin stayed relative. */
const PROBE_ORIGIN = 'https://return-to.invalid';

/** Pages that would send the person round again (or nowhere useful) once signed in. */
const NOT_RETURNED_TO: readonly string[] = ['/login', '/authenticate', '/logout'];

/**
 * The path, query and fragment to return to, or null when `raw` is not a same-origin relative
 * path: it must start with a single "/" (not "//host", not "/\host", which browsers read as
 * another host), hold no backslash or control character, and resolve to this origin.
 */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  // Browsers treat "\" as "/" in URLs, and drop tabs and newlines: "/\evil.example" is "//evil.example".
  if (/[\\\p{Cc}]/u.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  if (NOT_RETURNED_TO.includes(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in address that comes back to `path` afterwards (or plain /login for a path not allowed). */
export function loginReturningTo(path: string): string {
  const target = safeReturnTo(path);
  return target ? `/login?${RETURN_TO_PARAM}=${encodeURIComponent(target)}` : '/login';
}

/** The same return, carried on to another page of the sign-in (the two-factor step). */
export function withReturnTo(path: string, returnTo: string | null): string {
  const target = safeReturnTo(returnTo);
  if (!target) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${RETURN_TO_PARAM}=${encodeURIComponent(target)}`;
}
