import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { renderToStaticMarkup } from 'react-dom/server';
import { ColorSchemeScript } from '@mantine/core';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders, DEFAULT_COLOR_SCHEME } from './app/providers';
import { routes } from './app/router';

/**
 * The HTML of one public screen (the sign-in page) as the panel first renders it for a signed-out
 * visitor, made at build time (vite-prerender.ts). The server sends it in the page, so the screen
 * paints before any JavaScript has run; main.tsx then hydrates it (same tree as here: the
 * providers, the router, the lazy page inside RootLayout's Suspense).
 */
export async function render(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response) throw new Error(`prerender ${pathname}: the router answered with a redirect`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  return new Response(prelude).text();
}

/**
 * What a prerendered page's head needs before its body paints: Mantine's script that sets the colour
 * scheme (the one stored by the header's toggle, else the system's) on <html>. Without it the page
 * painted with none of the scheme's colours (a see-through card, inputs without borders) until the
 * panel's code ran. Inline, so the first paint waits for no request; the server allows it by its
 * hash (plugins/web.ts).
 */
export function head(): string {
  return renderToStaticMarkup(<ColorSchemeScript defaultColorScheme={DEFAULT_COLOR_SCHEME} />);
}
