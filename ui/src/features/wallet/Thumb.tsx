import { useEffect, useEffectEvent, useState } from 'react';
import { useI18n } from '../../i18n';

/** Leaving the page (a tile scrolled away), a picture lets go of its image at
 * once: the element itself may wait for the page's next garbage collection, and
 * would hold the image that long. */
function releaseOnLeave(img: HTMLImageElement | null) {
  if (!img) return;
  return () => img.removeAttribute('src');
}

/** `src`: the thumbnail's address, null when the NFT has no picture; `onSettled`:
 * called once the picture has loaded or failed, or at once when there is none;
 * `spam`: marked as likely spam (shown when hidden ones are). */
export function Thumb({
  src,
  name,
  video,
  spam = false,
  onSettled,
}: {
  src: string | null;
  name: string;
  video: boolean;
  spam?: boolean;
  onSettled?: () => void;
}) {
  const { t } = useI18n();
  const [broken, setBroken] = useState(false);
  const picture = src !== null && !broken;
  const settled = useEffectEvent(() => onSettled?.());
  useEffect(() => {
    if (!picture) settled();
  }, [picture]);
  return (
    <div className="thumb">
      {picture ? (
        <img
          ref={releaseOnLeave}
          src={src}
          alt={name}
          loading="lazy"
          decoding="async"
          onLoad={() => onSettled?.()}
          onError={() => setBroken(true)}
        />
      ) : (
        <span aria-hidden="true">◇</span>
      )}
      {video && <span className="badge">▶ {t('nfts.video')}</span>}
      {spam && (
        <span className="badge spam" data-testid="nft-spam-badge">
          {t('nfts.spamBadge')}
        </span>
      )}
    </div>
  );
}
