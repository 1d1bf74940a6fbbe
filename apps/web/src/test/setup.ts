import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { DEFAULT_LANGUAGE } from '@pakt/domain';
import { i18n } from '../i18n/i18n';

// jsdom implements neither; Mantine reads them for colour scheme, breakpoints and auto-sizing.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

// jsdom logs "Not implemented" for window.scrollTo; the ceremony scrolls the window to a field on a phone.
Object.defineProperty(window, 'scrollTo', { writable: true, value: () => {} });

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub;

/**
 * Pages render inside the app layout, whose notification provider opens a WebSocket; jsdom's
 * would try a real connection to nowhere and log each failure. A socket that never opens keeps
 * the provider waiting quietly; the notification tests pass their own fake (createSocket).
 */
class QuietWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    super();
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}
Object.defineProperty(window, 'WebSocket', { writable: true, value: QuietWebSocket });

// Without Vitest globals Testing Library cannot register its own cleanup.
afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage(DEFAULT_LANGUAGE);
});
