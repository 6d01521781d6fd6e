// A dapp written for MetaMask, unchanged: wagmi finds wallets by EIP-6963 and
// reads through the connected one. It knows nothing of Satchel; a person with
// Satchel Connector installed sees "Satchel" among the wallets. The local
// stack serves it with ./config.json naming the demo NFT contract.
import {
  connect,
  createConfig,
  deployContract,
  getCapabilities,
  readContract,
  sendCalls,
  signMessage,
  unstable_connector,
  waitForCallsStatus,
  waitForTransactionReceipt,
  watchConnection,
  watchConnectors,
  writeContract,
  injected,
  type Connector,
} from '@wagmi/core';
import { type Address, BaseError, ContractFunctionRevertedError, defineChain, encodeFunctionData, parseUnits, verifyMessage } from 'viem';
import { createSiweMessage, generateSiweNonce } from 'viem/siwe';

interface Config {
  chainId: number;
  /** The demo ERC-20 the batch approves. */
  token: Address;
  /** The demo ERC-721 with `claim(uri)` and `ownerOfOrRevert(id)`. */
  nft: Address;
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const show = (id: string, text: string, kind: 'ok' | 'error' | '' = '') => {
  const out = byId<HTMLOutputElement>(id);
  out.textContent = text;
  out.className = kind;
};
const failure = (error: unknown) => {
  const e = error as { code?: number; shortMessage?: string; message?: string; details?: string; cause?: { code?: number } };
  const code = e.code ?? e.cause?.code;
  const details = e.details && e.details !== e.shortMessage ? ` (${e.details})` : '';
  return `${code !== undefined ? `${code}: ` : ''}${e.shortMessage ?? e.message ?? String(error)}${details}`;
};

const settings: Config = await fetch('./config.json').then((r) => r.json() as Promise<Config>);
const chain = defineChain({
  id: settings.chainId,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

// Reads go through the connected wallet, as many dapps do.
const config = createConfig({
  chains: [chain],
  transports: { [chain.id]: unstable_connector(injected) },
  multiInjectedProviderDiscovery: true,
});

const nftAbi = [
  { type: 'function', name: 'claim', stateMutability: 'nonpayable', inputs: [{ name: 'uri', type: 'string' }], outputs: [{ name: 'id', type: 'uint256' }] },
  { type: 'function', name: 'ownerOfOrRevert', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }], outputs: [{ name: 'holder', type: 'address' }] },
  { type: 'error', name: 'NoSuchToken', inputs: [{ name: 'id', type: 'uint256' }] },
] as const;

let account: Address | undefined;
const log: string[] = [];
const logLine = (line: string) => {
  log.push(line);
  byId('events').textContent = log.join('\n');
};

// One button per wallet announced, as wallet lists show them.
const listWallets = (connectors: readonly Connector[]) => {
  const list = byId('wallets');
  list.replaceChildren(
    ...connectors
      .filter((c) => c.type === 'injected' && c.id !== 'injected')
      .map((connector) => {
        const button = document.createElement('button');
        button.dataset.rdns = connector.id;
        if (connector.icon) {
          const icon = document.createElement('img');
          icon.src = connector.icon;
          icon.alt = '';
          button.append(icon);
        }
        button.append(connector.name);
        button.onclick = async () => {
          try {
            const { accounts } = await connect(config, { connector, chainId: chain.id });
            account = accounts[0];
            show('account', account, 'ok');
          } catch (error) {
            show('account', failure(error), 'error');
          }
        };
        return button;
      }),
  );
};
listWallets(config.connectors);
watchConnectors(config, { onChange: listWallets });

watchConnection(config, {
  onChange(connection) {
    account = connection.address;
    logLine(`${connection.status}${connection.address ? ` ${connection.address}` : ''}`);
    for (const id of ['sign-in', 'mint', 'batch', 'deploy', 'read-missing']) byId<HTMLButtonElement>(id).disabled = connection.status !== 'connected';
  },
});

byId('sign-in').onclick = async () => {
  if (!account) return;
  try {
    const message = createSiweMessage({
      domain: location.host,
      address: account,
      statement: 'Sign in to the wagmi dapp.',
      uri: location.origin,
      version: '1',
      chainId: chain.id,
      nonce: generateSiweNonce(),
    });
    const signature = await signMessage(config, { message });
    const valid = await verifyMessage({ address: account, message, signature });
    show('sign-in-result', valid ? `signed in: ${signature}` : 'the signature does not recover', valid ? 'ok' : 'error');
  } catch (error) {
    show('sign-in-result', `refused: ${failure(error)}`, 'error');
  }
};

byId('mint').onclick = async () => {
  try {
    const hash = await writeContract(config, {
      address: settings.nft,
      abi: nftAbi,
      functionName: 'claim',
      args: ['data:application/json,{"name":"Pal from a wagmi dapp"}'],
      chainId: chain.id,
    });
    show('mint-result', `sent: ${hash}`, 'ok');
    const receipt = await waitForTransactionReceipt(config, { hash, pollingInterval: 500 });
    byId<HTMLOutputElement>('mint-result').dataset.hash = hash;
    show('mint-result', `minted in block ${receipt.blockNumber}`, receipt.status === 'success' ? 'ok' : 'error');
  } catch (error) {
    show('mint-result', `refused: ${failure(error)}`, 'error');
  }
};

const erc20Abi = [
  { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ name: 'spender', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
] as const;
/** Who the batch's approval is for (any address: the demo only shows it kept). */
const SPENDER: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

// EIP-5792: what the wallet can do, then the batch; its status once mined.
byId('batch').onclick = async () => {
  show('batch-result', 'asking…');
  try {
    const capabilities = await getCapabilities(config, { chainId: chain.id });
    const { id } = await sendCalls(config, {
      chainId: chain.id,
      calls: [
        { to: settings.token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, parseUnits('2', 18)] }) },
        { to: settings.nft, data: encodeFunctionData({ abi: nftAbi, functionName: 'claim', args: ['data:application/json,{"name":"Pal from a batch"}'] }) },
      ],
    });
    const { status, receipts, atomic } = await waitForCallsStatus(config, { id, pollingInterval: 500 });
    show(
      'batch-result',
      `batch ${status}: ${receipts?.length ?? 0} receipts, atomic ${String(atomic)}, atomic support ${String(capabilities.atomic?.status)}`,
      status === 'success' ? 'ok' : 'error',
    );
  } catch (error) {
    show('batch-result', `refused: ${failure(error)}`, 'error');
  }
};

// A deployment (a transaction without `to`): a contract that answers 42 to
// any call, from its creation code.
const ANSWERS_42 = '0x69602a60005260206000f3600052600a6016f3';
byId('deploy').onclick = async () => {
  show('deploy-result', 'asking…');
  try {
    const hash = await deployContract(config, { abi: [], bytecode: ANSWERS_42, chainId: chain.id });
    const receipt = await waitForTransactionReceipt(config, { hash, pollingInterval: 500 });
    show('deploy-result', `deployed at ${receipt.contractAddress}`, receipt.status === 'success' ? 'ok' : 'error');
  } catch (error) {
    show('deploy-result', `refused: ${failure(error)}`, 'error');
  }
};

byId('read-missing').onclick = async () => {
  show('read-result', 'reading…');
  try {
    const holder = await readContract(config, { address: settings.nft, abi: nftAbi, functionName: 'ownerOfOrRevert', args: [999_999n] });
    show('read-result', `owned by ${holder}`, 'ok');
  } catch (error) {
    // viem decodes the contract's own error from the revert bytes.
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
      show('read-result', `reverted: ${reverted.data.errorName}(${reverted.data.args?.join(', ')})`, 'ok');
    } else {
      show('read-result', `failed: ${failure(error)}`, 'error');
    }
  }
};
