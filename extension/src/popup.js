// The popup: whether Satchel answers, the link (the code Satchel's Settings
// shows, proven with a new key that the worker signs each socket's hello
// with: link.js), the port, and whether Satchel is offered as window.ethereum.
'use strict';

const byId = (id) => document.getElementById(id);
const browserName = () => {
  const agent = navigator.userAgent;
  if (agent.includes('Firefox/')) return 'Firefox';
  if (agent.includes('Edg/')) return 'Edge';
  return 'Chromium';
};

async function showStatus() {
  const { running, linked, port } = await chrome.runtime.sendMessage({ type: 'status' });
  const status = byId('status');
  byId('port').value = String(port);
  if (!running) {
    status.textContent = `Satchel is not running (looked on port ${port}). Start the Satchel app.`;
    status.className = 'off';
  } else if (!linked) {
    status.textContent = 'Satchel is running. Link this browser to it below.';
    status.className = 'link';
  } else {
    status.textContent = 'Linked to Satchel. Sites can ask it to connect; you approve each in Satchel.';
    status.className = 'ok';
  }
}

/** Links a new key with the code, on a socket of its own: the link, once
 * Satchel proved it knows the code too. */
async function link(code, port) {
  const { pair, key } = await SatchelLink.newKey();
  const proofs = await SatchelLink.proofs(code, key, port);
  const satchels = await new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    socket.onopen = () =>
      socket.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'satchel_extensionPair',
          params: [{ key, proof: proofs.extension, browser: browserName() }],
        }),
      );
    socket.onmessage = (event) => {
      let answer;
      try {
        answer = JSON.parse(event.data);
      } catch {
        answer = {};
      }
      // Satchel says a nonce first: linking does not need it.
      if (answer.method === 'satchel_extensionChallenge') return;
      socket.close();
      if (typeof answer.result?.proof === 'string') resolve(answer.result.proof);
      else reject(new Error(answer.error?.message ?? 'Satchel did not link this browser'));
    };
    socket.onerror = () => reject(new Error(`Satchel is not running on port ${port}`));
    // A program that hangs up without an answer (an older Satchel, another
    // program on the port) ends the try too (after an answer, this is a no-op).
    socket.onclose = () =>
      reject(new Error(`The program on port ${port} closed the connection without linking: is it Satchel?`));
  });
  if (satchels !== proofs.satchel) {
    throw new Error(`The program on port ${port} is not the Satchel that shows this code: nothing was linked`);
  }
  return { pair, key };
}

byId('link').addEventListener('submit', async (event) => {
  event.preventDefault();
  const out = byId('link-result');
  const button = byId('link-button');
  const { port = 1248 } = await chrome.storage.local.get('port');
  button.disabled = true;
  out.textContent = 'Linking…';
  out.className = '';
  try {
    await SatchelLink.save(await link(byId('code').value.trim(), port));
    // Tells the worker: its sessions start again with the new key.
    await chrome.storage.local.set({ linkedAt: Date.now() });
    out.textContent = 'Linked.';
    out.className = 'ok';
    byId('code').value = '';
    await showStatus();
  } catch (error) {
    out.textContent = error.message;
    out.className = 'error';
  } finally {
    button.disabled = false;
  }
});

byId('save-port').addEventListener('click', async () => {
  const port = Number(byId('port').value);
  if (Number.isInteger(port) && port > 0 && port < 65536) {
    await chrome.storage.local.set({ port });
    await showStatus();
  }
});

byId('default-wallet').addEventListener('change', (event) =>
  chrome.storage.local.set({ defaultWallet: event.target.checked }),
);
chrome.storage.local.get('defaultWallet').then(({ defaultWallet }) => {
  byId('default-wallet').checked = defaultWallet !== false;
});

showStatus();
