// A person's avatar: their picture, over their initial on a colour of their own while it loads or
// when it cannot (a gravatar the browser cannot reach).
import { useState } from 'preact/hooks';

const HUES = [210, 160, 20, 280, 340, 45, 190, 120];

export const Avatar = ({ name, url, userId, size = 36 }: { name: string; url?: string | null; userId: number; size?: number }) => {
  const [broken, setBroken] = useState(false);
  const hue = HUES[Math.abs(userId) % HUES.length];
  return (
    <span class="avatar" aria-hidden="true" style={{ width: `${size}px`, height: `${size}px`, background: `hsl(${hue} 45% 55%)` }}>
      <span class="avatar-initial">{name.trim().charAt(0).toUpperCase() || '?'}</span>
      {url && !broken && <img src={url} alt="" loading="lazy" onError={() => setBroken(true)} />}
    </span>
  );
};
