// The bridge (an isolated content script): the page's requests to the
// extension's worker over one port per frame, and the answers and events back.
// It passes what the page asks and nothing the page claims about itself: the
// worker takes the frame's origin from the browser.
(() => {
  'use strict';
  const FROM_PAGE = 'satchel-connector:page';
  const TO_PAGE = 'satchel-connector:bridge';
  /** The largest request passed on (Satchel's own bound is 256 KiB). */
  const MAX_REQUEST = 256 * 1024;

  let port = null;
  /** Whether the page asked anything yet: only then is a port opened, and
   * reopened after the worker restarts (so events keep coming). */
  let used = false;

  const toPage = (message) => window.postMessage({ target: TO_PAGE, ...message }, location.origin);

  const connect = () => {
    port = chrome.runtime.connect({ name: 'satchel' });
    port.onMessage.addListener((message) => toPage(message));
    port.onDisconnect.addListener(() => {
      port = null;
      toPage({ event: 'disconnect', data: { message: 'Satchel Connector restarted; reconnecting' } });
      // The worker went away (it sleeps, or the extension was updated): come
      // back so the page's events go on.
      if (used) setTimeout(() => port ?? connect(), 500);
    });
    return port;
  };

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source !== window || !data || data.target !== FROM_PAGE) return;
    const request = { id: data.id, method: data.method, params: data.params };
    let size = 0;
    try {
      size = JSON.stringify(request).length;
    } catch {
      size = Infinity;
    }
    if (typeof data.id !== 'number' || typeof data.method !== 'string' || size > MAX_REQUEST) {
      toPage({ id: data.id, error: { code: -32600, message: 'a request to Satchel is JSON, at most 256 KiB' } });
      return;
    }
    used = true;
    (port ?? connect()).postMessage(request);
  });

  chrome.storage.local.get('defaultWallet').then(({ defaultWallet }) => {
    if (defaultWallet === false) toPage({ event: 'withdraw' });
  });
})();
