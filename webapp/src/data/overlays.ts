// The overlays that open over the view at upstream's hashes: personal settings (#settings/<section>),
// organization settings (#organization/<section>) and the channel browser (#channels/<section>).
// The view behind stays; closing one goes back to the view's own hash.

export type OverlayKind = 'settings' | 'organization' | 'channels';

export type Overlay = { kind: OverlayKind; section: string };

/** Each overlay's section when its hash names none (upstream's defaults). */
const DEFAULT_SECTION: Record<OverlayKind, string> = { settings: 'profile', organization: 'organization-profile', channels: 'subscribed' };

/** The overlay a hash opens; undefined for a view's hash. */
export const overlayOfHash = (hash: string): Overlay | undefined => {
  const match = /^#(settings|organization|channels)(?:\/([\w-]+))?(?:\/|$)/.exec(hash);
  if (!match) return undefined;
  const kind = match[1] as OverlayKind;
  return { kind, section: match[2] ?? DEFAULT_SECTION[kind] };
};
