// A real OpenID provider on loopback (oidc-provider), standing in for Google
// (OpenID Connect: the service reads the id_token) and Discord (OAuth 2: the
// service calls userinfo with the access token) in the local stack and the
// end-to-end tests. Started by `satchel_devstack::OidcProvider::start()`.
//
// Environment: PORT (0 = a free one), GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET,
// DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET. When it listens it prints exactly
// one line to stdout: `listening http://127.0.0.1:<port>`.
//
// Its login page asks for a login name and any password; the accounts are
// `demo` (demo@satchel.dev), `ada` (ada@satchel.dev), `noemail` and any other
// name (a subject without an e-mail). Every authorization request asks for a
// login again (a browser that logged in before is not silently let through, so
// a test can log in as someone else), and there is no consent screen: these
// clients are first party. "Cancel" sends the browser back with
// `error=access_denied`.

import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';

// Two notices the library prints on every start say nothing here: Node 20 is
// not its preferred runtime (it works), and the in-memory store is what a
// throwaway provider wants.
const warn = console.warn.bind(console);
console.warn = (message, ...rest) => {
  if (typeof message === 'string' && /Unsupported runtime|in-memory adapter/u.test(message)) return;
  warn(message, ...rest);
};
const { default: Provider, interactionPolicy } = await import('oidc-provider');

function required(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`provider.mjs: ${name} is not set`);
    process.exit(2);
  }
  return value;
}

const port = Number.parseInt(process.env.PORT ?? '0', 10);
const clients = [
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET'],
].map(([id, secret]) => ({
  client_id: required(id),
  client_secret: required(secret),
  client_name: id.split('_')[0].toLowerCase(),
  application_type: 'native',
  token_endpoint_auth_method: 'client_secret_basic',
  grant_types: ['authorization_code'],
  response_types: ['code'],
  // A native client's loopback redirect matches on any port (RFC 8252 §7.3);
  // oidc-provider 9 does this itself for application_type 'native'.
  redirect_uris: ['http://127.0.0.1/callback'],
}));

const ACCOUNTS = {
  demo: { email: 'demo@satchel.dev', email_verified: true, name: 'Demo' },
  ada: { email: 'ada@satchel.dev', email_verified: true },
  noemail: {},
};

async function findAccount(_ctx, sub) {
  if (typeof sub !== 'string' || sub.length === 0) return undefined;
  const known = Object.hasOwn(ACCOUNTS, sub) ? ACCOUNTS[sub] : {};
  return {
    accountId: sub,
    async claims() {
      return { sub, ...known };
    },
  };
}

// Ask for a login at every authorization request, even with a session.
const { Check, base } = interactionPolicy;
const policy = base();
policy.get('login').checks.add(new Check(
  'fresh_login',
  'every authorization request asks for a login',
  (ctx) => (ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT),
));

function requestedScopes(ctx) {
  return [...(ctx.oidc.requestParamOIDCScopes ?? [])].join(' ');
}

// First-party clients: the requested scopes are granted without a consent screen.
async function loadExistingGrant(ctx) {
  const { provider, client, session } = ctx.oidc;
  const grantId = ctx.oidc.result?.consent?.grantId || session.grantIdFor(client.clientId);
  let grant = grantId ? await provider.Grant.find(grantId) : undefined;
  if (!grant || grant.accountId !== session.accountId) {
    grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  }
  grant.addOIDCScope(requestedScopes(ctx));
  await grant.save();
  return grant;
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = {
  ...privateKey.export({ format: 'jwk' }),
  kid: randomBytes(8).toString('hex'),
  alg: 'RS256',
  use: 'sig',
};

const server = createServer();
server.listen(port, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients,
    findAccount,
    loadExistingGrant,
    jwks: { keys: [signingKey] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    scopes: ['openid', 'email', 'profile'],
    responseTypes: ['code'],
    // Like Google, put the scope's claims (e-mail) into the id token too, not
    // only into userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: { enabled: false },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    // Plain http on 127.0.0.1: the cookies are not `secure`.
    cookies: {
      keys: [randomBytes(32).toString('hex')],
      long: { httpOnly: true, sameSite: 'lax', secure: false },
      short: { httpOnly: true, sameSite: 'lax', secure: false },
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Error', `<p id="error">${escape(out.error)}: ${escape(out.error_description ?? '')}</p>`);
    },
  });
  // Never log tokens; the library logs nothing by itself.
  provider.on('server_error', (_ctx, error) => console.error(`provider.mjs: ${error.message}`));

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const path = new URL(req.url, issuer).pathname;
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/u.exec(path);
    if (!match) {
      callback(req, res);
      return;
    }
    interaction(provider, req, res, match[2]).catch((error) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(page('Error', `<p id="error">${escape(error.message)}</p>`));
    });
  });
  process.stdout.write(`listening ${issuer}\n`);
});

function escape(text) {
  return String(text).replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title, body) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:sans-serif;max-width:22em;margin:3em auto}input,button{display:block;width:100%;margin:.4em 0;padding:.5em;box-sizing:border-box}</style>
</head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) {
    chunks.push(chunk);
    if (chunks.reduce((n, c) => n + c.length, 0) > 64 * 1024) throw new Error('body too large');
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

async function interaction(provider, req, res, action) {
  const details = await provider.interactionDetails(req, res);
  const { uid, prompt, params } = details;

  if (action === '/abort') {
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
    }, { mergeWithLastSubmission: false });
    return;
  }

  if (action === '/login') {
    if (req.method !== 'POST' || prompt.name !== 'login') throw new Error('unexpected login submission');
    const form = await readForm(req);
    const login = (form.get('login') ?? '').trim();
    if (!login || !form.get('password')) throw new Error('login and password are required');
    await provider.interactionFinished(req, res, { login: { accountId: login } }, {
      mergeWithLastSubmission: false,
    });
    return;
  }

  if (prompt.name === 'consent') {
    // Not reached with loadExistingGrant above; granted without asking if it is.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, {
      mergeWithLastSubmission: true,
    });
    return;
  }

  const client = await provider.Client.find(params.client_id);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(page('Sign in', `<p>to continue to ${escape(client?.clientName ?? params.client_id)}</p>
<form id="login" method="post" action="/interaction/${escape(uid)}/login" autocomplete="off">
<input type="text" name="login" placeholder="Login (any name; demo, ada, noemail)" required autofocus value="${escape(params.login_hint ?? '')}">
<input type="password" name="password" placeholder="Password (any)" required>
<button type="submit" id="submit">Sign in</button>
</form>
<p><a id="cancel" href="/interaction/${escape(uid)}/abort">Cancel</a></p>`));
}
