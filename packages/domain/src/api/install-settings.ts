import { z } from 'zod';
import { defineEndpoint } from './contract';
import { MailDelivery } from './public';

/**
 * The install's own switches, root's alone (the console at /root). Self sign-up makes a new
 * organisation whose owner confirms their address by mail: on an install that delivers no mail
 * nobody could confirm, so it is off unless root (or FEATURE_SIGNUP) says otherwise.
 */
export const InstallSettingsView = z.object({
  /** Whether mail leaves the install (SMTP_URL) or only waits in the outbox. */
  mailDelivery: MailDelivery,
  signup: z.object({
    /** In force: the login page offers sign-up and the server takes it. */
    enabled: z.boolean(),
    /** What applies without root's choice: FEATURE_SIGNUP when set, else whether mail is delivered. */
    byDefault: z.boolean(),
    /** Root's choice; null: none, the default applies. */
    chosen: z.boolean().nullable(),
  }),
});
export type InstallSettingsView = z.infer<typeof InstallSettingsView>;

export const getInstallSettings = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/root/settings',
  access: 'root',
  action: 'install.settings',
  summary: "Root: the install's switches (self sign-up) and whether it delivers mail.",
  response: InstallSettingsView,
});

export const updateInstallSettings = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/root/settings',
  access: 'root',
  action: 'install.settings',
  summary: "Root: switch self sign-up on or off for the whole install; null goes back to the default (on only where mail is delivered).",
  body: z.object({ signup: z.boolean().nullable() }).strict(),
  response: InstallSettingsView,
});
