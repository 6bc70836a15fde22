// Upstream's gear menu: the way to the overlays (the channel browser, organization settings, personal settings), each
// at its hash so Back closes it again.
import type { Anchor } from '../ui';
import { MenuItem, PopoverFrame } from './Popover';

const open = (hash: string) => () => {
  window.location.hash = hash;
};

export const GearMenu = ({ at }: { at: Anchor }) => (
  <PopoverFrame at={at} label="Main menu" role="menu" class="gear-menu" id="gear-menu">
    <MenuItem label="Channel settings" onSelect={open('#channels/subscribed')} />
    <MenuItem label="Organization settings" onSelect={open('#organization')} />
    <MenuItem label="Personal settings" onSelect={open('#settings/profile')} />
  </PopoverFrame>
);
