import { getTenantSettings, type InstallLimits, updateTenantSettings } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import * as settings from './settings';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';

/** /settings (super admin): the tenant's settings and password rules; the work is in admin/settings.ts. */
export function registerSettingsRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const install: InstallLimits = { ...ctx.config.features, supportedLanguages: ctx.config.supportedLanguages };

  route(app, ctx, getTenantSettings, async ({ auth }) => settings.loadTenantSettingsView({ db, tenantId: auth.tenant.id, install }));

  route(app, ctx, updateTenantSettings, async ({ auth, body, request }) => {
    const view = await settings.updateTenantSettings({
      db,
      tenantId: auth.tenant.id,
      actorId: auth.user.id,
      install,
      patch: body.settings,
      passwordConfig: body.passwordConfig,
    });
    request.log.info({ tenantId: auth.tenant.id }, 'tenant settings saved');
    return view;
  });
}
