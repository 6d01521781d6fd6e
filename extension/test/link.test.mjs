// The link's derivations in the extension agree with Satchel's: the same
// known answers are checked in Rust (crates/connect/tests/extension/linking.rs),
// and were computed with a third implementation (Node's own PBKDF2).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';

const source = readFileSync(new URL('../src/link.js', import.meta.url), 'utf8');
const context = vm.createContext({ crypto: globalThis.crypto, TextEncoder, indexedDB: undefined });
vm.runInContext(`${source}\nglobalThis.SatchelLink = SatchelLink;`, context);
const { SatchelLink } = context;

const KEY = `04${'11'.repeat(64)}`;

test('a typed code derives the proofs Satchel derives', async () => {
  const proofs = await SatchelLink.proofs(' abcd-efgh ', KEY, 1248);
  assert.equal(proofs.extension, '025c94ea3c13a4a438bfa301200dc7c6970587b4b437cbc810ca49fac3ea7477');
  assert.equal(proofs.satchel, '1e367c45347bc65605485719ed85f98552a5f98532e87d5407e3b158a7940dc2');
  const otherPort = await SatchelLink.proofs('ABCDEFGH', KEY, 1249);
  assert.notEqual(otherPort.extension, proofs.extension);
});

test("a hello signs Satchel's nonce, the page and the port", async () => {
  assert.equal(
    SatchelLink.helloMessage('n0nce', 'https://app.example', 1248),
    'satchel-extension-hello\nn0nce\nhttps://app.example\n1248',
  );
  // And what it signs verifies with the key it links.
  const { pair, key } = await SatchelLink.newKey();
  assert.match(key, /^04[0-9a-f]{128}$/);
  const signature = await SatchelLink.sign({ pair }, 'n0nce', 'https://app.example', 1248);
  const bytes = Uint8Array.from(signature.match(/../g), (b) => parseInt(b, 16));
  const message = new TextEncoder().encode(SatchelLink.helloMessage('n0nce', 'https://app.example', 1248));
  const verified = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pair.publicKey, bytes, message);
  assert.ok(verified);
});
