import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/**
 * System fonts only: nothing is fetched from a font CDN, which keeps the app working offline and
 * on closed networks. Noto Sans Devanagari is named so Hindi renders with a matching sans face
 * where the platform's default lacks Devanagari.
 */
const fontFamily =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", "Nirmala UI", "Helvetica Neue", Arial, sans-serif';

/**
 * The theme, with the words it carries in the interface language: a dialog's close button (an
 * icon) is named "Close" for screen readers unless the dialog names it itself (axe-core's
 * button-name rule, issue 22).
 */
export function themeIn(closeLabel: string) {
  return createTheme({
    ...theme,
    components: {
      ...theme.components,
      Modal: { ...theme.components!['Modal'], defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
      Drawer: { ...theme.components!['Drawer'], defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
    },
  });
}

export const theme = createTheme({
  primaryColor: 'indigo',
  // indigo.6 on white (and white on it) reaches about 4.3:1, short of WCAG AA's 4.5:1 for links and
  // button labels (axe-core, issue 22); indigo.7 reaches about 5:1.
  primaryShade: { light: 7, dark: 8 },
  fontFamily,
  headings: { fontFamily },
  defaultRadius: 'md',
  // Plain objects rather than Modal.extend() and the like (the same objects, typed): importing
  // Modal, Drawer and Menu here put them, with their focus trap and popovers, in the first
  // download of every page, the sign-in page's included.
  components: {
    // Mantine sets a dialog's title in body weight; as the dialog's heading it should read as one.
    Modal: { styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } } },
    Drawer: { styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } } },
    // On a phone, a row's menu opened near the bottom of the screen has to be scrolled to reach its
    // items; Mantine's default hides the menu once its button leaves the screen, so the item being
    // reached for vanished (seen in the rubber-stamps journey). The menu now scrolls with its button.
    Menu: { defaultProps: { hideDetached: false } },
  },
});

/**
 * Text in a colour must read on white and on its own light tint (WCAG AA, 4.5:1; axe-core checks
 * it, issue 22). Mantine's defaults do not: a light badge's label, an outline button's label and
 * `c="orange"` use shade 6 or 7, about 2.5 to 4:1. In the light scheme these inks use shade 9, and
 * where even that falls short (yellow, orange, green, lime, teal, red on its tint) a darker ink of
 * the same hue. Mantine's dimmed grey (gray.6, about 3.3:1) becomes gray.7 for the same reason.
 */
const DARKER_INKS: Readonly<Record<string, string>> = {
  yellow: '#8a5a00',
  orange: '#b23c0a',
  green: '#1e6b2f',
  lime: '#456f0a',
  teal: '#066a4d',
  red: '#b02525',
};

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' };
  for (const name of Object.keys(resolved.colors)) {
    const ink = DARKER_INKS[name] ?? `var(--mantine-color-${name}-9)`;
    light[`--mantine-color-${name}-text`] = ink;
    light[`--mantine-color-${name}-light-color`] = ink;
    light[`--mantine-color-${name}-outline`] = ink;
  }
  return { variables: {}, light, dark: {} };
};
