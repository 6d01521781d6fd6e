// Compiles the Solidity sources of a folder with solc (npm `solc`) into
// FOLDER/artifacts/NAME.json ({abi, bytecode: {object}}), the form alloy's `sol!`
// reads. The artifacts are committed beside the sources; run `npm run contracts`
// after editing a .sol file. Usage: node contracts/build.mjs [FOLDER]
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const here = process.argv[2] ?? dirname(fileURLToPath(import.meta.url));
const sources = Object.fromEntries(
  readdirSync(here)
    .filter((f) => f.endsWith('.sol'))
    .map((f) => [f, { content: readFileSync(join(here, f), 'utf8') }]),
);
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
for (const [file, contracts] of Object.entries(output.contracts)) {
  for (const [name, c] of Object.entries(contracts)) {
    const artifact = { abi: c.abi, bytecode: { object: `0x${c.evm.bytecode.object}` } };
    writeFileSync(join(here, 'artifacts', `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    console.log(`${file}: ${name}`);
  }
}
