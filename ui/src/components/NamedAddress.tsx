// An address with its primary ENS name above it, when it has one.
import { usePrimaryName } from '../hooks/usePrimaryName';
import { FullAddress } from './FullAddress';

/**
 * A whole address, and above it the address's primary ENS name once the app
 * has checked the name resolves back to it (a reverse record alone names
 * nothing). Without `network`, the first network whose table names a registry.
 */
export function NamedAddress({ network, address, testId }: { network?: string; address: string; testId?: string }) {
  const name = usePrimaryName(network, address);
  return (
    <span className="named-address">
      {name && (
        <strong className="primary-name" translate="no" data-testid={testId ? `${testId}-name` : undefined}>
          {name}
        </strong>
      )}
      <FullAddress address={address} className="compact" testId={testId} />
    </span>
  );
}
