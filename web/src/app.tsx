import { useEffect, useRef, useState } from 'preact/hooks';
import { APP_PAGES } from '../../src/http/routes/system/app-pages.js';
import { keyStore, onUnauthorized } from './api/client.js';
import { loadAppConfig, loadMe } from './api/session.js';
import type { AppConfig, Me } from './api/types.js';
import { DeleteToasts } from './components/delete-toasts.js';
import { Layout } from './components/layout.js';
import { asFailure, type ApiFailure } from './lib/api-error.js';
import { landingFor, useRecentPages } from './lib/landing.js';
import { matchPage } from './lib/match-page.js';
import { PAGES } from './pages/index.js';
import { NotFound } from './pages/not-found.js';
import { PageGate } from './pages/page-gate.js';
import { SignIn } from './pages/sign-in.js';
import { navigate, useLocation } from './router.js';
import { SessionContext, type Session } from './session.js';

type Boot = { state: 'starting' } | { state: 'failed'; failure: ApiFailure } | { state: 'ready'; config: AppConfig };

/** The key of this tab (key mode): checked once per load (GET /api/me, which also says what it may do), and again whenever the API refuses it. */
type KeyState = { state: 'checking' } | { state: 'none'; reason?: string } | { state: 'valid'; me: Me };

export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'starting' });
  const [key, setKey] = useState<KeyState>({ state: 'checking' });
  const location = useLocation();

  useEffect(() => {
    loadAppConfig().then(
      (config) => setBoot({ state: 'ready', config }),
      (error: unknown) => setBoot({ state: 'failed', failure: asFailure(error) }),
    );
    onUnauthorized((failure) => {
      keyStore.clear();
      setKey({ state: 'none', reason: `Your key was refused: ${failure.text}` });
    });
  }, []);

  const keyMode = boot.state === 'ready' && boot.config.auth_mode === 'api_key';
  useEffect(() => {
    if (!keyMode || key.state !== 'checking') return;
    const stored = keyStore.get();
    if (stored === undefined) return setKey({ state: 'none' });
    loadMe(stored).then(
      (me) => setKey({ state: 'valid', me }),
      (error: unknown) => {
        const failure = asFailure(error);
        if (failure.status === 401) keyStore.clear();
        setKey({ state: 'none', reason: failure.text });
      },
    );
  }, [keyMode, key.state]);

  const needsKey = keyMode && key.state === 'none';
  const search = location.query.toString();
  useSignInRedirect(needsKey, location.pathname, search);
  useRecentPages(keyMode && key.state === 'valid', location.pathname + (search === '' ? '' : `?${search}`), key.state === 'valid' ? key.me.permissions : []);
  useFocusOnNavigation(location.pathname);

  if (boot.state === 'failed') return <StartFailed failure={boot.failure} />;
  if (boot.state === 'starting' || (keyMode && key.state === 'checking')) {
    return (
      <p class="boot" role="status">
        Loading imagegate…
      </p>
    );
  }

  const session: Session = {
    mode: boot.config.auth_mode,
    uploadTypes: boot.config.upload_types,
    me: key.state === 'valid' ? key.me : undefined,
    signOut: () => {
      keyStore.clear();
      setKey({ state: 'none' });
    },
  };
  const match = matchPage(APP_PAGES, location.pathname);
  let content;
  if (needsKey) {
    content = (
      <SignIn
        reason={key.state === 'none' ? key.reason : undefined}
        onSignedIn={(me) => {
          setKey({ state: 'valid', me });
          navigate(landingFor(afterSignIn(location.query.get('next')), me.permissions), { replace: true });
        }}
      />
    );
  } else if (match === undefined) {
    content = <NotFound />;
  } else {
    const Page = PAGES[match.page];
    // A page the key cannot read says why instead of loading, so it never shows a 403 (nor logs one).
    content = (
      <PageGate pathname={location.pathname}>
        <Page params={match.params} query={location.query} />
      </PageGate>
    );
  }

  return (
    <SessionContext.Provider value={session}>
      <Layout signedIn={!needsKey} pathname={location.pathname}>
        {content}
      </Layout>
      <DeleteToasts />
    </SessionContext.Provider>
  );
}

/** Only a path of this app: `next` comes from the URL, so it must not send anyone to another site. */
function afterSignIn(next: string | null): string | undefined {
  return next !== null && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : undefined;
}

/** A signed-out visit to a page shows sign-in at /sign-in, and comes back to the page afterwards. */
function useSignInRedirect(needsKey: boolean, pathname: string, search: string): void {
  useEffect(() => {
    if (!needsKey || pathname === '/sign-in') return;
    const here = pathname + (search === '' ? '' : `?${search}`);
    navigate(pathname === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(here)}`, { replace: true });
  }, [needsKey, pathname, search]);
}

/** After moving to another page (not on the first load), focus goes to its heading, which a screen reader then reads. */
function useFocusOnNavigation(pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [pathname]);
}

function StartFailed({ failure }: { failure: ApiFailure }) {
  return (
    <main class="boot" id="main">
      <h1>imagegate could not start</h1>
      <p class="form-error" role="alert">
        {failure.text}
      </p>
      <button type="button" class="button primary" onClick={() => window.location.reload()}>
        Try again
      </button>
    </main>
  );
}
