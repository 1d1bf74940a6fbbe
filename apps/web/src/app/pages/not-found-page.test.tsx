import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { stubPublicApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

describe('NotFoundPage', () => {
  it('answers any unknown address with the not-found page and a way home', async () => {
    stubPublicApi();
    renderApp('/no/such/page');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(en.notFound.title);
    expect(screen.getByText('/no/such/page')).toBeTruthy();
    expect(screen.getByRole('link', { name: en.common.goHome }).getAttribute('href')).toBe('/');
  });
});
