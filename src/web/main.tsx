import '@mantine/core/styles.css';
import './app/global.css';

// The panel starts in steps, each evaluated in a task of its own, so that no single long task
// holds the page (Lighthouse's total blocking time on /signin, issue 23): React DOM first, then the
// app's modules (Mantine, the router, the query client, the routes), then the render or the
// hydration (app/mount.tsx). The build preloads every step's chunks with the entry
// (vite-prerender.ts), so the steps wait for no download.
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

async function start() {
  await import('react-dom/client');
  await nextTask();
  const { mount } = await import('./app/mount');
  await nextTask();
  mount(document.getElementById('root')!);
}

void start();
