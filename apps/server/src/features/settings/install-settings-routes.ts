import { installSettingsApi } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';
import { loadInstallSettings } from './install-settings';
import { setSelfSignUp } from './set-self-sign-up';

export function registerInstallSettingsRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  route(app, ctx, installSettingsApi.getInstallSettings, async () => loadInstallSettings({ db, config: ctx.config }));

  route(app, ctx, installSettingsApi.updateInstallSettings, async ({ body }) => {
    await setSelfSignUp({ db, enabled: body.signup });
    return loadInstallSettings({ db, config: ctx.config });
  });
}
