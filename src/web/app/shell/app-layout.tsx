import { Suspense, useEffect, useState } from 'react';
import { AppShell, Anchor } from '@mantine/core';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../../components/error-fallback';
import { PageLoader } from '../../components/page-loader';
import { TopProgress } from '../../components/top-progress';
import { Header } from './header';
import { Sidebar } from './sidebar';

/** Spec §2: the layout shows its loading screen for this long before the shell. */
export const LAYOUT_LOADING_MS = 500;

export function AppLayout() {
  const [ready, setReady] = useState(false);
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const [collapsed, setCollapsed] = useLocalStorage({ key: 'sidebarCollapsed', defaultValue: false });
  const isDesktop = useMediaQuery('(min-width: 48em)');
  const { pathname } = useLocation();
  const mini = collapsed && isDesktop === true;

  useEffect(() => {
    const timer = window.setTimeout(() => setReady(true), LAYOUT_LOADING_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (!ready) return <PageLoader label="Loading dashboard..." />;

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: mini ? 76 : 260, breakpoint: 'sm', collapsed: { mobile: !mobileOpened } }}
      padding="lg"
    >
      <TopProgress />
      <Anchor href="#main-content" className="skip-link">
        Skip to main content
      </Anchor>
      <AppShell.Header>
        <Header
          mobileOpened={mobileOpened}
          onToggleMobile={toggleMobile}
          collapsed={mini}
          onToggleCollapsed={() => setCollapsed((value) => !value)}
        />
      </AppShell.Header>
      <AppShell.Navbar>
        <Sidebar mini={mini} onNavigate={closeMobile} />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1} bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))">
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </AppShell.Main>
    </AppShell>
  );
}
