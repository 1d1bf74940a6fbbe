import { createTheme, Drawer, Menu, Modal, type CSSVariablesResolver } from '@mantine/core';

/**
 * System fonts only: nothing is fetched from a font CDN, which keeps the app working offline and
 * on closed networks. Noto Sans Devanagari is named so Hindi renders with a matching sans face
 * where the platform's default lacks Devanagari.
 */
const fontFamily =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", "Nirmala UI", "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  primaryColor: 'indigo',
  fontFamily,
  headings: { fontFamily },
  defaultRadius: 'md',
  components: {
    // Mantine sets a dialog's title in body weight; as the dialog's heading it should read as one.
    Modal: Modal.extend({ styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } } }),
    Drawer: Drawer.extend({ styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } } }),
    // On a phone, a row's menu opened near the bottom of the screen has to be scrolled to reach its
    // items; Mantine's default hides the menu once its button leaves the screen, so the item being
    // reached for vanished (seen in the rubber-stamps journey). The menu now scrolls with its button.
    Menu: Menu.extend({ defaultProps: { hideDetached: false } }),
  },
});

/**
 * Mantine's dimmed grey (gray.6) reaches only about 3.3:1 on white; secondary text carries real
 * explanations here (access-denied pages), so it gets gray.7 to meet WCAG AA's 4.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
