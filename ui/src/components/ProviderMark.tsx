// The OAuth providers as the pages show them: their names (from the locale files)
// and a simple mark of our own, a letter on a circle in the provider's colour.
import type { OAuthProvider, Provider } from '../api';
import type { TextId, Translate } from '../i18n';

const marks: Record<OAuthProvider, { colour: string; letter: string }> = {
  google: { colour: '#4285f4', letter: 'G' },
  apple: { colour: '#1d1d1f', letter: 'A' },
  naver: { colour: '#03c75a', letter: 'N' },
  discord: { colour: '#5865f2', letter: 'D' },
  line: { colour: '#06c755', letter: 'L' },
  facebook: { colour: '#1877f2', letter: 'f' },
};

/** The provider's name in the person's language ("Google", "네이버"). */
export function providerName(t: Translate, provider: OAuthProvider): string {
  return t(`provider.${provider}` as TextId);
}

export function isOAuthProvider(provider: Provider): provider is OAuthProvider {
  return provider in marks;
}

/** The provider's mark: decoration next to its name, hidden from screen readers. */
export function ProviderMark({ provider, size = 20 }: { provider: OAuthProvider; size?: number }) {
  const { colour, letter } = marks[provider];
  return (
    <svg className="provider-mark" viewBox="0 0 20 20" width={size} height={size} aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="9.5" fill={colour} style={provider === 'apple' ? { stroke: 'var(--line)' } : undefined} />
      <text x="10" y="14.3" textAnchor="middle" fontSize="12" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        {letter}
      </text>
    </svg>
  );
}
