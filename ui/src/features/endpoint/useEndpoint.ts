import { useEffect, useRef, useState } from 'react';
import { api, type EndpointStatus } from '../../api';

/** Where the local endpoint listens, or why it cannot, as it changes. */
export function useEndpoint(): [EndpointStatus | null, (status: EndpointStatus) => void] {
  const [status, setStatus] = useState<EndpointStatus | null>(null);
  const watching = useRef(false);
  useEffect(() => {
    if (watching.current) return;
    watching.current = true;
    api.watchEndpoint(setStatus).catch(() => {
      watching.current = false;
    });
  }, []);
  return [status, setStatus];
}
