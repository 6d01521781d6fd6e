// Pages that are not on the way to the wallet are separate scripts, loaded when
// first opened: the first script the window parses is smaller, so the wallet
// shows sooner and the page's process holds less compiled code. A page's script
// comes from the app's own files (no network), in a few milliseconds.
import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';

type Loader = () => Promise<unknown>;
const loaders: Loader[] = [];

/** `pick(module)` of the script `load` brings, as a component that shows an
 * empty page while the script loads the first time, and at once after that. */
export function lazyPage<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  const bring = () =>
    load().then((module) => {
      loaded = pick(module);
      return { default: loaded };
    });
  loaders.push(bring);
  const Lazy = lazy(bring);
  function Page(props: P): ReactNode {
    if (loaded) {
      const Loaded = loaded;
      return <Loaded {...props} />;
    }
    return (
      <Suspense fallback={<main className="page" aria-busy="true" />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Page;
}

/** Loads every lazy page's script: the component tests, which render pages
 * without waiting for their scripts, call it first. */
export function loadAllPages(): Promise<unknown> {
  return Promise.all(loaders.map((bring) => bring()));
}
