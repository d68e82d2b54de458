import { darken, luminance, type CSSVariablesResolver, type MantineTheme } from '@mantine/core';

/** WCAG AA for normal-size text, with a little margin for anti-aliasing. */
const AA = 4.6;

const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** The colour, darkened step by step until text in it (or white text on it) reads at AA against `other`. */
function readableOn(color: string, other: string): string {
  let c = color;
  for (let k = 0.1; ratio(c, other) < AA && k <= 0.6; k += 0.1) c = darken(color, k);
  return c;
}

const shadeOf = (theme: MantineTheme, scheme: 'light' | 'dark') =>
  typeof theme.primaryShade === 'number' ? theme.primaryShade : theme.primaryShade[scheme];

/**
 * Mantine's defaults put some small text under WCAG AA (axe color-contrast): in the light scheme
 * the dimmed grey (3.3:1) and placeholders, coloured text such as `c="teal"`, white text on filled
 * teal or green buttons, and the text of light badges on their tint; in the dark scheme the dimmed
 * grey (4:1 on a card) and white on the lighter filled shades. Each colour is darkened only as far
 * as it needs to be; the dark scheme's greys take the next lighter shade.
 */
export const contrastResolver: CSSVariablesResolver = (theme) => {
  const page = theme.colors.gray[0];
  const light: Record<string, string> = {
    // Dimmed text also sits on tinted panels (a highlighted primary bank account), so one shade darker.
    '--mantine-color-dimmed': theme.colors.gray[7],
    '--mantine-color-placeholder': readableOn(theme.colors.gray[6], page),
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': theme.colors.dark[1],
    '--mantine-color-placeholder': theme.colors.dark[1],
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark') continue;
    const filled = shades[shadeOf(theme, 'light')];
    const solid = readableOn(filled, '#ffffff');
    light[`--mantine-color-${name}-filled`] = solid;
    light[`--mantine-color-${name}-filled-hover`] = darken(solid, 0.1);
    light[`--mantine-color-${name}-text`] = readableOn(filled, page);
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[1]);
    const darkSolid = readableOn(shades[shadeOf(theme, 'dark')], '#ffffff');
    dark[`--mantine-color-${name}-filled`] = darkSolid;
    dark[`--mantine-color-${name}-filled-hover`] = darken(darkSolid, 0.1);
  }
  return { variables: {}, light, dark };
};
