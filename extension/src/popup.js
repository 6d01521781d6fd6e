// The popup: whether Satchel answers, the link (the code Satchel's Settings
// shows, exchanged here for the token the worker presents), the port, and
// whether Satchel is offered as window.ethereum.
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

/** Exchanges the code for a token, on a socket of its own. */
function link(code, port) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    socket.onopen = () =>
      socket.send(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'satchel_extensionPair', params: [{ code, browser: browserName() }] }),
      );
    socket.onmessage = (event) => {
      const answer = JSON.parse(event.data);
      socket.close();
      if (answer.result?.token) resolve(answer.result.token);
      else reject(new Error(answer.error?.message ?? 'Satchel did not link this browser'));
    };
    socket.onerror = () => reject(new Error(`Satchel is not running on port ${port}`));
  });
}

byId('link').addEventListener('submit', async (event) => {
  event.preventDefault();
  const out = byId('link-result');
  const { port = 1248 } = await chrome.storage.local.get('port');
  try {
    const token = await link(byId('code').value.trim(), port);
    await chrome.storage.local.set({ token });
    out.textContent = 'Linked.';
    out.className = 'ok';
    byId('code').value = '';
    await showStatus();
  } catch (error) {
    out.textContent = error.message;
    out.className = 'error';
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
