// Docs that cannot drift silently: README.md and docs/*.md checked against the
// repository they describe. Node's own test runner, no npm packages:
//
//   node --test tests/docs/
//
// (a) every repository path the docs name (in `code` or as a link) exists, and
//     every link's #anchor is a heading of the file it points at;
// (b) the numbers the docs quote for bounds are the constants in the code, and
//     no doc states another number in the same phrase;
// (c) the commands table in docs/desktop-app.md names exactly the app's
//     #[tauri::command] functions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const exists = (file) => fs.existsSync(path.join(root, file));

const docs = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** A doc with its fenced code blocks blanked (commands and examples, not claims
 * about the tree), its lines where they were. */
function prose(text) {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** The line a match is on, for the failure message. */
const lineOf = (text, index) => text.slice(0, index).split('\n').length;

// ---------------------------------------------------------------------------
// (a) paths

/** What the repository ignores (.gitignore): a build's output, not a repo path. */
const ignored = read('.gitignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
function isIgnored(p) {
  return ignored.some((pattern) => {
    if (pattern.startsWith('*.')) return p.endsWith(pattern.slice(1));
    const dir = pattern.replace(/^\//, '').replace(/\/$/, '');
    return p === dir || p.startsWith(`${dir}/`) || (!pattern.startsWith('/') && p.includes(`/${dir}/`));
  });
}

/** The repository's top level: a path in `code` counts as the repo's when it starts there. */
const topLevel = new Set(
  fs.readdirSync(root).filter((name) => name !== '.git' && !isIgnored(name)),
);
/** Files whose name alone is a path worth checking. */
const topLevelFiles = new Set([...topLevel].filter((n) => fs.statSync(path.join(root, n)).isFile()));
/** Extensions of source and doc files: a relative path with one of these is checked too. */
const sourceFile = /\.(rs|ts|tsx|mjs|js|sh|md|toml|json|yml|yaml|sol|sql|py|xml|desktop)$/;

/** Only path characters: no spaces, globs, placeholders (`<…>`, `{…}`, `…`), URLs, `~`, `@`. */
const pathLike = /^[A-Za-z0-9_.-][A-Za-z0-9_.\-/]*$/;

/** A `code` span's text when it names a repository path, else null. */
function codePath(span) {
  const p = span.trim();
  if (!pathLike.test(p)) return null;
  if (p.split('/').some((seg) => seg === '..' || seg === '.')) return null;
  if (p.includes('//')) return null;
  const first = p.split('/')[0];
  if (!p.includes('/')) return topLevelFiles.has(p) ? p : null;
  if (topLevel.has(first) || sourceFile.test(p)) return p.replace(/\/$/, '');
  return null;
}

/** GitHub's anchor of a heading. */
function slug(heading) {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}
function anchorsOf(file) {
  const seen = new Map();
  const anchors = new Set();
  for (const m of prose(read(file)).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every repository path a doc names: [doc, line, path, anchor?]. */
function namedPaths(doc) {
  const text = prose(read(doc));
  const found = [];
  // Links: relative to the doc, an anchor checked against the target's headings.
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [file, anchor] = target.split('#');
    const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(doc), file)) : doc;
    if (resolved.startsWith('..')) continue; // outside the repository
    found.push([doc, lineOf(text, m.index), resolved.replace(/\/$/, ''), anchor]);
  }
  // `code` spans that look like repository paths.
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const p = codePath(m[1]);
    if (p && !isIgnored(p)) found.push([doc, lineOf(text, m.index), p]);
  }
  return found;
}

test('every repository path the docs name exists', () => {
  const missing = [];
  let checked = 0;
  for (const doc of docs) {
    for (const [file, line, p, anchor] of namedPaths(doc)) {
      checked += 1;
      if (!exists(p)) {
        missing.push(`${file}:${line}: ${p} does not exist`);
      } else if (anchor && p.endsWith('.md') && !anchorsOf(p).has(anchor)) {
        missing.push(`${file}:${line}: ${p} has no heading #${anchor}`);
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} paths found: is the pattern still finding them?`);
  assert.deepEqual(missing, [], `paths the docs name that are not in the repository:\n${missing.join('\n')}`);
});

test('README links every file of docs/, and docs/README.md indexes them all', () => {
  const readme = read('README.md');
  const index = read('docs/README.md');
  const files = docs.filter((d) => d.startsWith('docs/') && d !== 'docs/README.md');
  const notIndexed = files.filter((d) => !index.includes(`(${d.slice('docs/'.length)}`));
  assert.deepEqual(notIndexed, [], 'docs/README.md does not list these');
  assert.ok(readme.includes('(docs/README.md)'), 'README.md links docs/README.md');
});

// ---------------------------------------------------------------------------
// (b) numbers quoted for bounds

/** The value of `const NAME: T = <expr>;` in a Rust file (digits, `_`, `*`, `<<`). */
function rustConst(file, name) {
  assert.ok(exists(file), `${file} is gone: where is ${name} now? (update tests/docs/docs.test.mjs)`);
  const m = read(file).match(new RegExp(`\\bconst ${name}\\s*:\\s*[A-Za-z0-9_:]+\\s*=\\s*([^;]+);`));
  assert.ok(m, `${file} has no \`const ${name}\``);
  const expr = m[1].replace(/_/g, '').trim();
  assert.match(expr, /^[0-9\s*<]+$/, `${file}: ${name} = ${m[1]} is not a plain number`);
  return expr
    .split('*')
    .map((factor) => factor.split('<<').map((s) => BigInt(s.trim())).reduce((a, b) => a << b))
    .reduce((a, b) => a * b);
}

/** Each bound: the constant, and the phrase the docs state it in ({n} the number). */
const bounds = [
  { file: 'crates/connect/src/socket.rs', name: 'MAX_SOCKETS', doc: 'docs/local-provider.md', phrase: 'at most {n} WebSockets' },
  { file: 'crates/connect/src/socket.rs', name: 'MAX_SUBSCRIPTIONS', doc: 'docs/local-provider.md', phrase: 'each with {n} subscriptions' },
  { file: 'crates/connect/src/server.rs', name: 'MAX_IN_FLIGHT', doc: 'docs/local-provider.md', phrase: 'at most {n} requests in flight' },
  { file: 'crates/desktop/src/dapps.rs', name: 'MAX_WAITING', doc: 'docs/local-provider.md', phrase: 'at most {n} prompts waiting' },
  { file: 'crates/connect/src/door.rs', name: 'MAX_BODY', doc: 'docs/local-provider.md', phrase: 'bodies of at most {n} KiB', unit: 1024n },
  { file: 'crates/connect/src/rpc.rs', name: 'MAX_BATCH', doc: 'docs/local-provider.md', phrase: 'batches of at most {n} requests' },
  { file: 'crates/service/src/relay.rs', name: 'MAX_BATCH', doc: 'docs/service.md', phrase: 'a batch of at most {n} calls' },
  { file: 'crates/chain/src/nfts.rs', name: 'BATCH_CALLS', doc: 'docs/service.md', phrase: 'JSON-RPC batches of at most {n} calls' },
  { file: 'crates/service/src/db/wallet_reads.rs', name: 'KEEP_BATCH', doc: 'docs/architecture.md', phrase: 'at most {n} to a transaction' },
  { file: 'crates/service/src/db/wallet_reads.rs', name: 'KEEP_QUEUE', doc: 'docs/architecture.md', phrase: 'a queue of at most {n} bodies' },
  { file: 'crates/service/src/heads.rs', name: 'MAX_WAITERS', doc: 'docs/service.md', phrase: 'at most {n} wait at once' },
  { file: 'crates/service/src/http/mod.rs', name: 'BODY_LIMIT', doc: 'docs/security.md', phrase: 'Request bodies are at most {n} KiB', unit: 1024n },
  { file: 'crates/connect/src/allowance.rs', name: 'READ_BURST', doc: 'docs/local-provider.md', phrase: 'a burst of {n}, then' },
  { file: 'crates/connect/src/allowance.rs', name: 'READS_PER_MINUTE', doc: 'docs/local-provider.md', phrase: 'then {n} a minute' },
  { file: 'crates/connect/src/review/calls.rs', name: 'MAX_CALLS', doc: 'docs/local-provider.md', phrase: 'up to {n} calls in a batch, on one page' },
  { file: 'crates/connect/src/batches.rs', name: 'MAX_BATCHES', doc: 'docs/local-provider.md', phrase: 'the newest {n} kept' },
  { file: 'crates/connect/src/socket/logs.rs', name: 'MAX_LOGS_PER_BLOCK', doc: 'docs/local-provider.md', phrase: 'at most {n} a block' },
  { file: 'crates/connect/src/extension.rs', name: 'MAX_LINKED', doc: 'docs/browser-extension.md', phrase: 'at most {n} of them' },
  { file: 'crates/connect/src/extension/proof.rs', name: 'LINK_ROUNDS', doc: 'docs/browser-extension.md', phrase: 'PBKDF2-SHA256, {n} rounds' },
  { file: 'crates/connect/src/extension.rs', name: 'CODE_TRIES', doc: 'docs/browser-extension.md', phrase: '{n} wrong tries void it' },
  { file: 'crates/api/src/rules.rs', name: 'MAX_ACCOUNTS', doc: 'docs/desktop-app.md', phrase: 'at most {n} accounts a wallet' },
  { file: 'crates/service/src/assets/approvals.rs', name: 'MAX_APPROVALS', doc: 'docs/desktop-app.md', phrase: 'at most {n} kept per account' },
  { file: 'crates/sdk/src/widget/nft_grid.rs', name: 'MAX_TILES', doc: 'docs/desktop-app.md', phrase: 'up to count (at most {n}) of the grid' },
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Docs as one line each, `code` marks dropped, so a phrase may wrap. */
const flat = Object.fromEntries(
  docs.map((d) => [d, read(d).replace(/`/g, '').replace(/\s+/g, ' ')]),
);

for (const bound of bounds) {
  test(`${bound.doc} states ${bound.name} of ${bound.file}`, () => {
    const value = rustConst(bound.file, bound.name);
    assert.equal(value % (bound.unit ?? 1n), 0n, `${bound.name} is not a whole number of the unit`);
    const n = value / (bound.unit ?? 1n);
    // The phrase with any number: every doc that says it says the code's number.
    const pattern = new RegExp(
      escape(bound.phrase).replace(escape('{n}'), '(\\d[\\d,]*)'),
      'g',
    );
    let stated = false;
    for (const doc of docs) {
      for (const m of flat[doc].matchAll(pattern)) {
        const quoted = BigInt(m[1].replace(/,/g, ''));
        assert.equal(quoted, n, `${doc} says "${m[0]}", but ${bound.file} has ${bound.name} = ${n}`);
        if (doc === bound.doc) stated = true;
      }
    }
    assert.ok(stated, `${bound.doc} does not say "${bound.phrase.replace('{n}', n)}"`);
  });
}

// ---------------------------------------------------------------------------
// (c) the commands table

/** Every #[tauri::command] function of the app and its plugin. */
function commandsInCode() {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.rs')) {
        for (const m of read(rel).matchAll(/#\[tauri::command\]\s*(?:(?:#\[[^\]]*\]|\/\/[^\n]*)\s*)*pub\s+(?:async\s+)?fn\s+(\w+)/g)) {
          names.add(m[1]);
        }
      }
    }
  };
  for (const dir of ['src-tauri', 'crates']) walk(dir);
  return [...names].sort();
}

test('the commands table of docs/desktop-app.md names exactly the commands in the code', () => {
  const parts = read('docs/desktop-app.md').split('<!-- commands -->');
  assert.equal(parts.length, 3, 'docs/desktop-app.md has its table between two <!-- commands --> markers');
  const documented = parts[1]
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(3).split('`')[0])
    .sort();
  assert.deepEqual(documented, commandsInCode());
});
