// Copy, then Copied for a moment.
import { useState } from 'react';
import { copyText } from '../lib/copy';
import { useI18n } from '../i18n';

/** Copies `text`; says Copied for a moment. */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  async function copy() {
    if (await copyText(text)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  }
  return (
    <button type="button" className="link-button" onClick={copy} data-testid={testId}>
      {copied ? t('common.copied') : label}
    </button>
  );
}
