import { AliveData, PublicConfiguration, responseEnvelope, publicAlive, publicConfiguration } from '@pakt/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { systemSettings } from '../../platform/db/schema';
import { PUBLIC_SETTINGS_KEY } from './public-settings';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testBackend } from '../../test/test-database';
import { inject } from '../../test/inject';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /msbapi/public/alive', () => {
  it('answers code 1 with the database kind in use', async () => {
    t = await buildTestApp();
    const res = await inject(t.app, publicAlive, {});
    expect(res.statusCode).toBe(200);
    const body = responseEnvelope(publicAlive).parse(res.json());
    expect(body.code).toBe(1);
    expect(AliveData.parse(body.data)).toMatchObject({ status: 'UP', database: testBackend().kind });
  });

  it('answers 500 / -2 when the database is gone', async () => {
    t = await buildTestApp();
    await t.database.close();
    const res = await inject(t.app, publicAlive, {});
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: -2, data: null, message: 'Internal server error.' });
    await t.app.close();
    t = undefined;
  });
});

describe('GET /msbapi/public/configuration', () => {
  it('gives the login page its languages, feature flags and zoom settings from the environment', async () => {
    t = await buildTestApp({ env: { SUPPORTED_LANGUAGES: 'en,hi', FEATURE_PDF_COMPARE: 'false' } });
    const res = await inject(t.app, publicConfiguration, {});
    expect(res.statusCode).toBe(200);
    const { data } = responseEnvelope(publicConfiguration).parse(res.json());
    expect(PublicConfiguration.parse(data)).toMatchObject({
      supportedLanguages: ['en', 'hi'],
      defaultLanguage: 'en',
      features: { pdfCompare: false, teamRooms: true },
      zoom: { min: 0.6, max: 3, step: 0.3, allowZoom: false, defaultRenderMode: 'fitToWidth' },
      login: { rememberMe: false, loginImages: false },
    });
  });

  it('applies overrides stored in system_settings', async () => {
    t = await buildTestApp();
    await t.database.db
      .insert(systemSettings)
      .values({ key: PUBLIC_SETTINGS_KEY, value: { features: { teamRooms: false }, zoom: { max: 2 } } });
    const res = await inject(t.app, publicConfiguration, {});
    expect(res.json().data.features.teamRooms).toBe(false);
    expect(res.json().data.zoom.max).toBe(2);
  });

  it('keeps the default zoom when the stored one is out of order', async () => {
    t = await buildTestApp();
    await t.database.db.insert(systemSettings).values({ key: PUBLIC_SETTINGS_KEY, value: { zoom: { min: 4 } } });
    const res = await inject(t.app, publicConfiguration, {});
    expect(res.json().data.zoom).toMatchObject({ min: 0.6, max: 3, step: 0.3 });
  });

  it('ignores a stored value that no longer validates instead of failing the login page', async () => {
    t = await buildTestApp();
    await t.database.db
      .insert(systemSettings)
      .values({ key: PUBLIC_SETTINGS_KEY, value: { features: { teamRooms: 'sometimes' } } });
    const res = await inject(t.app, publicConfiguration, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().data.features.teamRooms).toBe(true);
  });
});
