/**
 * The meta tag by which a prerendered page names the stylesheet it comes without (vite-prerender.ts
 * writes it, lib/stylesheet.ts loads the sheet it names). No DOM here: the build imports it too.
 */
export const DEFERRED_STYLESHEET = 'backoffice-stylesheet';
