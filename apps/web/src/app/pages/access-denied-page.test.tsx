import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_STATUSES } from '@pakt/domain';
import en from '../../i18n/en.json';
import { stubPublicApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('AccessDeniedPage', () => {
  beforeEach(() => {
    stubPublicApi();
  });

  it.each(ACCESS_DENIED_STATUSES)('shows the %s title, explanation and action', async (status) => {
    renderApp(`/accessdenied?status=${status}`);
    expect(await screen.findByRole('heading', { level: 1, name: en.accessDenied[status].title })).toBeTruthy();
    expect(screen.getByText(en.accessDenied[status].description)).toBeTruthy();
    expect(screen.getAllByRole(status === 'servererror' ? 'button' : 'link', { name: en.accessDenied[status].action })).toHaveLength(1);
  });

  it('gives each status a title of its own', () => {
    const titles = ACCESS_DENIED_STATUSES.map((status) => en.accessDenied[status].title);
    expect(new Set(titles).size).toBe(ACCESS_DENIED_STATUSES.length);
  });

  it.each(['/accessdenied?status=nonsense', '/accessdenied', '/accessdenied?status=FORBIDDEN'])(
    'treats %s as forbidden',
    async (path) => {
      renderApp(path);
      await screen.findByRole('heading', { level: 1 });
      expect(heading()).toBe(en.accessDenied.forbidden.title);
    },
  );

  it('sends expired and unauthorized visitors to sign in again', async () => {
    renderApp('/accessdenied?status=expired');
    const signIn = await screen.findByRole('link', { name: en.accessDenied.expired.action });
    expect(signIn.getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: en.common.goHome }).getAttribute('href')).toBe('/');
  });
});
