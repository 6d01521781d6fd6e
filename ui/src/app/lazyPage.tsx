// Pages that are not on the way to the wallet are separate scripts, loaded when
// first opened: the first script the window parses is smaller, so the wallet
// shows sooner and the page's process holds less compiled code. A page's script
// comes from the app's own files (no network), in a few milliseconds.
//
// Not React.lazy with Suspense: React holds a suspended page's content back for
// at least 300 ms after its fallback shows (so fallbacks do not flicker), which
// made the NFT tab's first row 350 ms later in the desktop benchmark. The page
// renders itself once its script is here instead.
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

type Loader = () => Promise<unknown>;
const loaders: Loader[] = [];

/** A page whose script is loaded when it is first shown, or before by `preload`. */
export type LazyPage<P> = ComponentType<P> & { preload: () => Promise<void> };

/** `pick(module)` of the script `load` brings, as a component that shows an
 * empty page while the script loads the first time, and at once after that. */
export function lazyPage<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  // One load, whoever asks first (a preload, the page itself, the tests); a
  // load that failed is not kept, so the next ask tries again.
  let loading: Promise<void> | undefined;
  const bring = () =>
    (loading ??= load().then(
      (module) => {
        loaded = pick(module);
      },
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  loaders.push(bring);
  function Page(props: P): ReactNode {
    const [, setArrived] = useState(loaded !== undefined);
    useEffect(() => {
      if (!loaded) void bring().then(() => setArrived(true));
    }, []);
    if (!loaded) return <main className="page" aria-busy="true" />;
    const Loaded = loaded;
    return <Loaded {...props} />;
  }
  return Object.assign(Page, { preload: bring });
}

/** Loads every lazy page's script: the component tests, which render pages
 * without waiting for their scripts, call it first. */
export function loadAllPages(): Promise<unknown> {
  return Promise.all(loaders.map((bring) => bring()));
}
