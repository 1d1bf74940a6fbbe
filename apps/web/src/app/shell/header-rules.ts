/**
 * Spec section 2, header: the language selector appears when logged out, on email-sign pages with
 * an email token, on verify, and on authenticate during two-factor. Signed-in users change their
 * language elsewhere, so the header stays free for the tenant selector and user widget.
 */
export function shouldShowLanguageSelector(options: {
  readonly loggedIn: boolean;
  readonly pathname: string;
  readonly search: string;
}): boolean {
  if (!options.loggedIn) return true;
  const section = options.pathname.split('/')[1] ?? '';
  if (section === 'verify' || section === 'authenticate') return true;
  // The name of the email-sign token parameter is not in the spec; `token` is our choice and must
  // match the links the server mails out.
  return section === 'emailsign' && new URLSearchParams(options.search).has('token');
}
