// Satchel in the page (the MAIN world, before the page's own scripts): an
// EIP-1193 provider announced by EIP-6963 and, when no other wallet took it,
// offered as window.ethereum. It holds no secret and names no origin: each
// request goes by window.postMessage to the extension's bridge (bridge.js),
// which passes it to the extension's worker, which knows the page's real
// origin from the browser.
(() => {
  'use strict';
  if (window.__satchelConnector) return;
  Object.defineProperty(window, '__satchelConnector', { value: true });

  const TO_BRIDGE = 'satchel-connector:page';
  const FROM_BRIDGE = 'satchel-connector:bridge';
  /** Requests a page may have waiting at once (the worker bounds them too). */
  const MAX_WAITING = 64;
  const ICON =
    'data:image/svg+xml;base64,' +
    btoa(
      "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 96 96'><rect width='96' height='96' rx='22' fill='#4f46e5'/>" +
        "<path d='M26 38h44l-4 34H30z' fill='#fff'/><path d='M36 38c0-8 5-14 12-14s12 6 12 14' stroke='#fff' stroke-width='6' fill='none'/></svg>",
    );

  class ProviderRpcError extends Error {
    constructor(code, message, data) {
      super(message);
      this.code = code;
      if (data !== undefined) this.data = data;
    }
  }

  const waiting = new Map();
  const listeners = new Map();
  let nextId = 1;
  let chainId = null;

  const emit = (event, ...args) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(...args);
      } catch (error) {
        console.error(error);
      }
    }
  };

  const provider = Object.freeze({
    isSatchel: true,
    request({ method, params } = {}) {
      if (typeof method !== 'string' || method.length === 0) {
        return Promise.reject(new ProviderRpcError(-32600, 'a request names its method'));
      }
      if (params !== undefined && (typeof params !== 'object' || params === null)) {
        return Promise.reject(new ProviderRpcError(-32602, 'params are an array or an object'));
      }
      if (waiting.size >= MAX_WAITING) {
        return Promise.reject(new ProviderRpcError(-32005, 'too many requests to Satchel are waiting'));
      }
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        window.postMessage({ target: TO_BRIDGE, id, method, params: params ?? [] }, location.origin);
      });
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  });

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source !== window || !data || data.target !== FROM_BRIDGE) return;
    if (data.id !== undefined) {
      const pending = waiting.get(data.id);
      if (!pending) return;
      waiting.delete(data.id);
      if (data.error) {
        pending.reject(new ProviderRpcError(data.error.code, data.error.message, data.error.data));
      } else {
        pending.resolve(data.result);
      }
      return;
    }
    switch (data.event) {
      case 'connect':
        chainId = data.data?.chainId ?? chainId;
        emit('connect', { chainId });
        break;
      case 'disconnect': {
        const error = new ProviderRpcError(4900, data.data?.message ?? 'Satchel is not running');
        for (const [, pending] of waiting) pending.reject(error);
        waiting.clear();
        emit('disconnect', error);
        break;
      }
      case 'chainChanged':
        chainId = data.data;
        emit('chainChanged', data.data);
        break;
      case 'accountsChanged':
        emit('accountsChanged', data.data);
        break;
      case 'message':
        emit('message', data.data);
        break;
      case 'withdraw':
        // The person chose, in the extension, not to offer Satchel as the
        // page's default wallet.
        if (window.ethereum === provider) {
          try {
            delete window.ethereum;
          } catch {
            // Not ours to remove after all.
          }
        }
        break;
    }
  });

  // The page's default wallet, when no other wallet took the place.
  if (window.ethereum === undefined) {
    Object.defineProperty(window, 'ethereum', { value: provider, configurable: true, writable: false });
  }

  // EIP-6963: one uuid for this page's session; announced now and whenever
  // the page asks.
  const info = Object.freeze({ uuid: crypto.randomUUID(), name: 'Satchel', icon: ICON, rdns: 'dev.satchel' });
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();
