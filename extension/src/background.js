// The extension's worker: one session per frame that asked Satchel anything,
// each with its own WebSocket to the app's local endpoint. Satchel sends a
// nonce first; the session's hello names the frame's origin as the browser
// reports it (port.sender.origin), never what the page says, and signs the
// nonce, the origin and the port with the linked key (link.js). From then on requests and answers pass through, and Satchel's
// accountsChanged / chainChanged subscriptions come back as the page's events.
'use strict';

// Chromium runs this as a service worker; Firefox loads link.js before it.
if (typeof SatchelLink === 'undefined') importScripts('link.js');

const DEFAULT_PORT = 1248;
/** Requests one frame may have waiting for its socket to open. */
const MAX_QUEUED = 64;
/** Requests of one frame waiting for Satchel's answer. */
const MAX_PENDING = 64;
/** Frames with a session at once (Satchel caps its sockets too). */
const MAX_SESSIONS = 64;
/** Frames of one tab with a session: a page full of frames cannot take
 * every session from the other tabs. */
const MAX_SESSIONS_PER_TAB = 8;
/** A socket that opened sends something this often, so the browser keeps
 * the worker (and the socket) alive (Chrome 116+ counts socket traffic). */
const KEEPALIVE_MS = 20_000;
const RETRY_FIRST_MS = 1_000;
const RETRY_MOST_MS = 5_000;

const NOT_RUNNING = 'Satchel is not running: start the Satchel app, and this page reconnects';
const NOT_LINKED =
  'Satchel Connector is not linked: in Satchel, open Settings, Browser extension, Link, and type the code into this extension';

/** @type {Map<chrome.runtime.Port, Session>} */
const sessions = new Map();

/** The origin the browser gives the frame (http and https pages only). Only
 * `sender.origin`: the URL a frame was loaded from is not its origin (a
 * sandboxed frame's is opaque), and a browser that does not say is refused. */
function originOf(sender) {
  const origin = sender.origin;
  return typeof origin === 'string' && /^https?:\/\/[^/]+$/.test(origin) ? origin : undefined;
}

async function settings() {
  const [{ port }, link] = await Promise.all([chrome.storage.local.get('port'), SatchelLink.load().catch(() => undefined)]);
  return { link, port: Number.isInteger(port) ? port : DEFAULT_PORT };
}

// A token from before keys is of no use now (Satchel forgot it too).
chrome.storage.local.remove('token').catch(() => {});

/** The icon's badge: what is wrong, if anything. */
function showStatus(status) {
  const text = { ok: '', off: 'off', link: 'link' }[status] ?? '';
  chrome.action.setBadgeText({ text }).catch(() => {});
  chrome.action.setBadgeBackgroundColor({ color: status === 'link' ? '#b45309' : '#6b7280' }).catch(() => {});
  chrome.storage.session?.set({ status }).catch(() => {});
}

class Session {
  constructor(port, origin) {
    this.port = port;
    this.origin = origin;
    this.socket = null;
    this.open = false;
    this.queue = [];
    /** Socket request id -> the page's id. */
    this.pending = new Map();
    /** Satchel's subscription ids for the page's two events. */
    this.events = new Map();
    this.nextId = 1;
    this.retry = RETRY_FIRST_MS;
    this.retryTimer = null;
    this.closed = false;
    /** A socket is being opened (its settings read): no second one. */
    this.connecting = false;
    /** Satchel refused the link: no retrying until it changes. */
    this.refused = false;
    this.everOpen = false;
  }

  toPage(message) {
    try {
      this.port.postMessage(message);
    } catch {
      this.close();
    }
  }

  request(request) {
    if (this.open) return this.send(request);
    if (this.queue.length >= MAX_QUEUED) {
      this.toPage({ id: request.id, error: { code: -32005, message: 'too many requests to Satchel are waiting' } });
      return;
    }
    this.queue.push(request);
    if (!this.socket && !this.connecting) this.connect();
  }

  send({ id, method, params }) {
    if (this.pending.size >= MAX_PENDING) {
      this.toPage({ id, error: { code: -32005, message: 'too many requests to Satchel are waiting' } });
      return;
    }
    const socketId = `p${this.nextId++}`;
    this.pending.set(socketId, id);
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id: socketId, method, params }));
  }

  /** Answers every request that waits with `error`. */
  fail(error) {
    for (const request of this.queue) this.toPage({ id: request.id, error });
    this.queue = [];
    for (const [, id] of this.pending) this.toPage({ id, error });
    this.pending.clear();
  }

  async connect() {
    // One socket a frame: requests that come while it opens wait in the queue.
    if (this.closed || this.connecting) return;
    this.connecting = true;
    const { link, port } = await settings();
    if (!link || this.closed) {
      this.connecting = false;
      if (this.closed) return;
      showStatus('link');
      this.fail({ code: 4100, message: NOT_LINKED });
      return;
    }
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    this.socket = socket;
    this.connecting = false;
    let said = false;
    socket.onopen = () => {
      said = true;
    };
    // Satchel's first message is the nonce this socket's hello signs.
    let challenged = false;
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      if (challenged) return this.received(event.data, socket);
      challenged = true;
      this.sayHello(event.data, socket, link, port);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      const wasOpen = this.open;
      this.socket = null;
      this.open = false;
      this.events.clear();
      if (this.closed) return;
      if (!said || wasOpen) showStatus('off');
      this.fail({ code: 4900, message: NOT_RUNNING });
      if (wasOpen) this.toPage({ event: 'disconnect', data: { message: NOT_RUNNING } });
      // Back when Satchel is (unless it refused the link): the page is told
      // connect, its accounts and chain, and its events go on.
      if (!this.refused) this.scheduleRetry();
    };
  }

  async sayHello(text, socket, link, port) {
    let nonce;
    try {
      const message = JSON.parse(text);
      if (message.method === 'satchel_extensionChallenge') nonce = message.params?.nonce;
    } catch {
      nonce = undefined;
    }
    if (typeof nonce !== 'string' || !/^[0-9a-f]{64}$/.test(nonce)) {
      // Not Satchel (or an older one) on the port.
      socket.close();
      return;
    }
    const signature = await SatchelLink.sign(link, nonce, this.origin, port);
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'hello',
        method: 'satchel_extensionHello',
        params: [{ key: link.key, origin: this.origin, signature }],
      }),
    );
  }

  scheduleRetry() {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.socket) this.connect();
    }, this.retry);
    this.retry = Math.min(this.retry * 2, RETRY_MOST_MS);
  }

  received(text, socket) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.id === 'hello') return this.greeted(message, socket);
    if (message.method === 'eth_subscription') {
      const { subscription, result } = message.params ?? {};
      const event = this.events.get(subscription);
      this.toPage(event ? { event, data: result } : { event: 'message', data: { type: 'eth_subscription', data: message.params } });
      return;
    }
    if (typeof message.id === 'string' && message.id.startsWith('e-')) return this.eventAnswer(message);
    const id = this.pending.get(message.id);
    if (id === undefined) return;
    this.pending.delete(message.id);
    this.toPage(message.error ? { id, error: message.error } : { id, result: message.result });
  }

  greeted(message, socket) {
    if (message.error) {
      const linkLost = message.error.code === 4100;
      this.refused = linkLost;
      showStatus(linkLost ? 'link' : 'off');
      this.fail(linkLost ? { code: 4100, message: NOT_LINKED } : message.error);
      socket.close();
      return;
    }
    showStatus('ok');
    this.open = true;
    this.everOpen = true;
    this.retry = RETRY_FIRST_MS;
    // What the page's events come from, and what it is told now.
    const ask = (id, method, params = []) => socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    ask('e-chainId', 'eth_chainId');
    ask('e-accounts', 'eth_accounts');
    ask('e-sub-accountsChanged', 'eth_subscribe', ['accountsChanged']);
    ask('e-sub-chainChanged', 'eth_subscribe', ['chainChanged']);
    const queued = this.queue;
    this.queue = [];
    for (const request of queued) this.send(request);
  }

  eventAnswer(message) {
    switch (message.id) {
      case 'e-chainId':
        if (message.result) this.toPage({ event: 'connect', data: { chainId: message.result } });
        break;
      case 'e-accounts':
        if (Array.isArray(message.result) && message.result.length > 0) {
          this.toPage({ event: 'accountsChanged', data: message.result });
        }
        break;
      case 'e-sub-accountsChanged':
        if (message.result) this.events.set(message.result, 'accountsChanged');
        break;
      case 'e-sub-chainChanged':
        if (message.result) this.events.set(message.result, 'chainChanged');
        break;
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = null;
    sessions.delete(this.port);
  }
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'satchel') return;
  const origin = originOf(port.sender ?? {});
  const tab = port.sender?.tab?.id;
  const tabsSessions = [...sessions.values()].filter((s) => s.tab === tab).length;
  if (!origin) {
    port.disconnect();
    return;
  }
  if (sessions.size >= MAX_SESSIONS || tabsSessions >= MAX_SESSIONS_PER_TAB) {
    // Kept open (so the frame does not knock again), each request refused.
    port.onMessage.addListener((request) => {
      if (request && typeof request.id === 'number') {
        port.postMessage({ id: request.id, error: { code: -32005, message: 'too many frames are talking to Satchel: close some tabs or frames' } });
      }
    });
    return;
  }
  const session = new Session(port, origin);
  session.tab = tab;
  sessions.set(port, session);
  port.onMessage.addListener((request) => {
    if (request && typeof request.id === 'number' && typeof request.method === 'string') session.request(request);
  });
  port.onDisconnect.addListener(() => session.close());
});

// A new link or port: sessions start again with it.
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !(changes.linkedAt || changes.port)) return;
  for (const session of sessions.values()) {
    // What waited on the old link is answered, not left hanging.
    session.fail({ code: 4900, message: 'Satchel Connector was linked again: ask again' });
    session.socket?.close();
    session.socket = null;
    session.open = false;
    session.retry = RETRY_FIRST_MS;
    session.refused = false;
    if (session.everOpen || session.queue.length > 0) session.connect();
  }
});

setInterval(() => {
  for (const session of sessions.values()) {
    if (session.open) session.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 'e-keepalive', method: 'eth_chainId', params: [] }));
  }
}, KEEPALIVE_MS);

// The popup asks whether Satchel answers on its port.
chrome.runtime.onMessage.addListener((message, sender, reply) => {
  if (message?.type !== 'status' || sender.id !== chrome.runtime.id) return false;
  settings().then(({ link, port }) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    const done = (running) => {
      socket.onopen = socket.onerror = socket.onclose = null;
      socket.close();
      reply({ running, linked: Boolean(link), port });
    };
    socket.onopen = () => done(true);
    socket.onerror = () => done(false);
  });
  return true;
});
