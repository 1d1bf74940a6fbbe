/**
 * The variables a child process of ours (the PDF sandbox, LibreOffice) may inherit: where
 * programs, the home and temporary directories are, the locale and time zone, fonts. An
 * allow-list, not a deny-list: the server's environment holds SEAL_MASTER_KEY, DATABASE_URL,
 * SMTP_URL, SETUP_TOKEN, SMS_WEBHOOK_TOKEN and whatever an operator adds, and a child that parses a
 * stranger's file must be able to leak none of them, including ones added after this was written.
 */
export const CHILD_ENVIRONMENT_ALLOWED = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  // LibreOffice finds its fonts through fontconfig, which keeps its cache under XDG_CACHE_HOME.
  'FONTCONFIG_FILE',
  'FONTCONFIG_PATH',
  'XDG_CACHE_HOME',
  // Windows cannot start a process without these.
  'SYSTEMROOT',
  'WINDIR',
] as const;

/**
 * The environment for a child process: the allowed variables of `from` that are set, plus
 * `extra`. Built here, never by spreading process.env, so every child gets the same minimum.
 */
export function childEnvironment(extra: Record<string, string> = {}, from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of CHILD_ENVIRONMENT_ALLOWED) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
