import { DEFERRED_STYLESHEET } from './deferred-stylesheet';

let loading: Promise<void> | undefined;

/**
 * The panel's whole stylesheet, on a page that came without it: the prerendered sign-in page paints
 * with the CSS of its first screen inline and names the rest in a meta tag (vite-prerender.ts,
 * Lighthouse issue 23). Added right after the inline CSS (where index.html has it, so the cascade
 * is the same) when something needs it — any other screen, the sign-in form once used, an
 * error screen; resolves once it has loaded (or failed). On every other page it is there already.
 */
export function loadStylesheet(): Promise<void> {
  if (typeof document === 'undefined') return Promise.resolve();
  const href = document.querySelector<HTMLMetaElement>(`meta[name="${DEFERRED_STYLESHEET}"]`)?.content;
  if (!href) return Promise.resolve();
  return (loading ??= new Promise<void>((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = link.onerror = () => resolve();
    const inline = document.getElementById('critical-css');
    if (inline) inline.after(link);
    else document.head.append(link);
  }));
}
