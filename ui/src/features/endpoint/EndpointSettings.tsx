// Settings → Endpoint for dapps: where dapps and programs reach Satchel, why
// they cannot when its port is taken, and another port to move it to (kept
// for the next start).
import { useState } from 'react';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { useEndpoint } from './useEndpoint';

export function EndpointSettings() {
  const { t } = useI18n();
  const [status, setStatus] = useEndpoint();
  const [port, setPort] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!status || status.port === 0) return null;
  const move = async () => {
    setError(null);
    try {
      setStatus(await api.moveEndpoint(Number(port)));
      setPort('');
    } catch (e) {
      setError((e as { message?: string }).message ?? String(e));
    }
  };
  return (
    <section className="card" aria-labelledby="settings-endpoint" data-testid="endpoint-settings">
      <div id="settings-endpoint" className="muted">
        {t('endpoint.title')}
      </div>
      {status.serving ? (
        <p className="small" data-testid="endpoint-status">
          {t('endpoint.serving', { port: status.port })}
        </p>
      ) : (
        <p className="notice warning small" role="alert" data-testid="endpoint-status">
          {t('endpoint.off', { problem: status.problem ?? '' })}
        </p>
      )}
      <label className="field-label" htmlFor="endpoint-port">
        {t('endpoint.port')}
      </label>
      <div className="input-row">
        <input
          id="endpoint-port"
          inputMode="numeric"
          value={port}
          placeholder={String(status.port)}
          onChange={(e) => setPort(e.target.value.replace(/[^0-9]/g, '').slice(0, 5))}
          data-testid="endpoint-port"
        />
        <button type="button" className="link-button" disabled={port === ''} onClick={() => void move()} data-testid="endpoint-move">
          {t('endpoint.move')}
        </button>
      </div>
      {error && (
        <p className="error small" role="alert" data-testid="endpoint-error">
          {error}
        </p>
      )}
    </section>
  );
}
