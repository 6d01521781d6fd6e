// Satchel as a wagmi connector, for dapps that list their wallets themselves:
//
//   import { satchel } from '@satchel/provider/wagmi';
//   const config = createConfig({ chains, transports, connectors: [satchel()] });
//
// It is wagmi's own `injected` connector over this package's provider (no
// browser extension needed): connect, accounts, chain switches and events
// behave as wagmi's other injected wallets do.
import { injected } from '@wagmi/core';
import { SATCHEL_ICON, satchelProvider, type SatchelProviderOptions } from './index.js';

/** The connector; `options` reach the provider (Satchel's port, the transport). */
export function satchel(options: SatchelProviderOptions = {}) {
  const provider = satchelProvider(options);
  return injected({
    target: () => ({
      id: 'dev.satchel',
      name: 'Satchel',
      icon: SATCHEL_ICON,
      provider: provider as never,
    }),
  });
}
