import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './providers';
import { routes } from './router';

/**
 * Renders the panel into the page's root (main.tsx loads this after React DOM, in a task of its
 * own). The sign-in page comes prerendered (prerender.tsx, vite-prerender.ts): it is hydrated, in
 * a transition so that the work is cut into short tasks; every other page renders here.
 */
export function mount(container: HTMLElement): void {
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  if (container.firstElementChild) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}
