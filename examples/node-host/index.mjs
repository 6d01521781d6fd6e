#!/usr/bin/env node
// Pixel Quest's command line: a program that is not a Tauri app, using the
// installed Satchel app's widget through its local endpoint. Its app id, key
// and domain (the identifier it is registered under) are its own: Satchel asks
// the person once, then shows this app's login, registration and send pages
// in a window of their own; its people's wallets never mix with Satchel's own.
//
//   PIXEL_QUEST_APP_ID=… PIXEL_QUEST_APP_KEY=… node index.mjs [--logout]
//
// Prints one JSON line per step (what a game would show), and exits non-zero
// with the widget's error code when a step fails.
import { SatchelWidget, endpointTransport } from '@satchel/widget';

const env = (name, fallback) => process.env[name] ?? fallback;
const say = (step, value) => console.log(JSON.stringify({ step, ...value }));

const satchel = new SatchelWidget({
  appId: env('PIXEL_QUEST_APP_ID'),
  appKey: env('PIXEL_QUEST_APP_KEY'),
  transport: endpointTransport({
    domain: env('PIXEL_QUEST_DOMAIN', 'dev.example.pixelquest'),
    url: env('SATCHEL_ENDPOINT', 'http://127.0.0.1:1248'),
  }),
});

try {
  await satchel.init({ defaultLanguage: 'en' }); // Satchel asks the person the first time
  say('init', { status: await satchel.getStatus() });
  const user = await satchel.loginWithUI(); // Satchel's login page, for this app
  if ((await satchel.getStatus()) === 'login_before_register') {
    await satchel.register(); // the PIN is chosen in Satchel's window, never here
  }
  say('login', { userId: user.userInfo?.userId, email: user.userInfo?.email, status: await satchel.getStatus() });
  const accounts = await satchel.getAccounts();
  // Read from the chain now (named accounts are): a wallet just made is funded.
  const balances = await satchel.getBalance(accounts.filter((a) => !a.contract));
  say('wallet', { accounts, balances });
  if (process.argv.includes('--logout')) {
    await satchel.logout();
    say('logout', { status: await satchel.getStatus() });
    await satchel.finalize();
  }
} catch (e) {
  say('error', { code: e.code, message: e.message });
  process.exitCode = 1;
}
