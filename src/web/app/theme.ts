import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif', fontWeight: '700' },
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    Paper: { defaultProps: { shadow: 'xs' } },
    Card: { defaultProps: { shadow: 'xs', withBorder: true, radius: 'md' } },
    // Mantine's modal close button has no accessible name of its own (axe button-name).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // A badge is never cut short ('AC…'): the cell around it gives way instead.
    Badge: { styles: { root: { flexShrink: 0, overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible' } } },
  },
});
