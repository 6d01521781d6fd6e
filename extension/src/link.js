// The link between this browser and Satchel, shared by the popup (which
// makes it) and the worker (which proves it on every socket).
//
// The extension's key pair is made by WebCrypto with its private half not
// extractable, and kept in the extension's own IndexedDB: no page and no
// content script can read it, and even the extension can only sign with it.
// Linking never sends the code Satchel shows, only a proof derived from it
// (PBKDF2) bound to this key and the port; Satchel answers with the other
// half of the derivation, so the popup knows it linked to Satchel. Each
// socket then signs Satchel's nonce, the page's origin and the port it dialled.
'use strict';

// eslint-disable-next-line no-unused-vars
const SatchelLink = (() => {
  const DB = 'satchel-connector';
  const STORE = 'link';
  const CURRENT = 'current';
  /** Satchel's LINK_ROUNDS (crates/connect/src/extension/proof.rs). */
  const LINK_ROUNDS = 100_000;

  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
  const utf8 = (text) => new TextEncoder().encode(text);

  function database() {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open(DB, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
  }

  async function inStore(mode, act) {
    const db = await database();
    try {
      return await new Promise((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = act(transaction.objectStore(STORE));
        transaction.oncomplete = () => resolve(request.result);
        transaction.onerror = () => reject(transaction.error);
      });
    } finally {
      db.close();
    }
  }

  /** The link kept, `{ pair, key }`, or undefined. */
  const load = () => inStore('readonly', (store) => store.get(CURRENT));
  const save = (link) => inStore('readwrite', (store) => store.put(link, CURRENT));

  /** A new key pair: its private half cannot leave WebCrypto. */
  async function newKey() {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const key = hex(await crypto.subtle.exportKey('raw', pair.publicKey));
    return { pair, key };
  }

  /** The code as Satchel compares it. */
  const normalized = (code) => code.trim().toUpperCase().replace(/[- ]/g, '');

  /** The extension's proof (sent) and Satchel's (expected back). */
  async function proofs(code, key, port) {
    const material = await crypto.subtle.importKey('raw', utf8(normalized(code)), 'PBKDF2', false, ['deriveBits']);
    const salt = utf8(`satchel-extension-link\n${key}\n${port}`);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: LINK_ROUNDS },
      material,
      512,
    );
    return { extension: hex(bits.slice(0, 32)), satchel: hex(bits.slice(32)) };
  }

  /** What a socket's hello signs: Satchel's nonce, the page and the port. */
  const helloMessage = (nonce, origin, port) => `satchel-extension-hello\n${nonce}\n${origin}\n${port}`;

  /** A socket's hello, signed. */
  async function sign(link, nonce, origin, port) {
    const message = utf8(helloMessage(nonce, origin, port));
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, link.pair.privateKey, message);
    return hex(signature);
  }

  return { load, save, newKey, proofs, helloMessage, sign };
})();
