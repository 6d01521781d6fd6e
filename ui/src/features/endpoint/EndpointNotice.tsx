// The local endpoint cannot listen (another program holds its port): dapps
// and programs cannot reach Satchel, so the window says so above any page and
// says where to choose another port.
import { useState } from 'react';
import { useI18n } from '../../i18n';
import { useEndpoint } from './useEndpoint';

export function EndpointNotice() {
  const { t } = useI18n();
  const [status] = useEndpoint();
  const [dismissed, setDismissed] = useState(false);
  if (!status?.problem || dismissed) return null;
  return (
    <div className="notice warning site-switched" role="alert" data-testid="endpoint-off">
      <span>
        {t('endpoint.off', { problem: status.problem })} {t('endpoint.choose')}
      </span>
      <button type="button" className="secondary" onClick={() => setDismissed(true)}>
        {t('endpoint.dismiss')}
      </button>
    </div>
  );
}
