// A whole address in blocks of four.
import { Fragment } from 'react';
import { addressGroups } from '../lib/format';

/** A whole address in blocks of four for reading; as text, the address itself. */
export function FullAddress({ address, className = '', testId }: { address: string; className?: string; testId?: string }) {
  return (
    <span className={`full-address ${className}`} translate="no" data-testid={testId}>
      {addressGroups(address).map((group, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span>{group}</span>
        </Fragment>
      ))}
    </span>
  );
}
