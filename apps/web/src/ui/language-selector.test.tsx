import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../api/session-store';
import en from '../i18n/en.json';
import hi from '../i18n/hi.json';
import { LANGUAGE_STORAGE_KEY } from '../i18n/i18n';
import { configurationData, signedInSession, stubPublicApi } from '../test/fake-api';
import { renderApp } from '../test/render-app';

const languageSelect = () => screen.getByRole('combobox', { name: en.shell.language }) as HTMLSelectElement;

describe('language selector', () => {
  it('switches the visible text to Hindi and remembers the choice', async () => {
    stubPublicApi();
    renderApp('/');
    expect(await screen.findByText(en.home.tagline)).toBeTruthy();

    fireEvent.change(languageSelect(), { target: { value: 'hi' } });

    expect(await screen.findByText(hi.home.tagline)).toBeTruthy();
    expect(screen.queryByText(en.home.tagline)).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: hi.home.whatHeading })).toBeTruthy();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');
    expect(document.documentElement.lang).toBe('hi');
  });

  it('offers only the languages the server supports', async () => {
    stubPublicApi({ ...configurationData, supportedLanguages: ['en'] });
    renderApp('/');
    await waitFor(() => expect(within(languageSelect()).queryAllByRole('option')).toHaveLength(1));
    expect(within(languageSelect()).getByRole('option').textContent).toBe('English');
  });

  it('starts in the configured default language when nothing was chosen', async () => {
    stubPublicApi({ ...configurationData, defaultLanguage: 'hi' });
    renderApp('/');
    expect(await screen.findByText(hi.home.tagline)).toBeTruthy();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull();
  });

  it('is hidden once a user is signed in, and the user widget appears instead', async () => {
    stubPublicApi();
    sessionStore.set(signedInSession());
    try {
      renderApp('/');
      expect(await screen.findByRole('button', { name: en.shell.accountMenu.replace('{{name}}', 'Asha Rao') })).toBeTruthy();
      expect(screen.queryByRole('combobox', { name: en.shell.language })).toBeNull();
    } finally {
      sessionStore.clear();
    }
  });

  it('shows no user widget while logged out', async () => {
    stubPublicApi();
    renderApp('/');
    await screen.findByText(en.home.tagline);
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
  });
});
