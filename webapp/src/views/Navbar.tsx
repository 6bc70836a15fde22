// The top bar: the organization, the view's header (upstream's #message_view_header), the search
// box (SearchBox.tsx) and who is signed in, with the gear menu (GearMenu.tsx) and the way out.
import { signOut } from '../desktop';
import { viewTitle } from '../data/title';
import { channels, counts, me, narrow, people, realm } from '../store';
import { anchorOf, popover } from '../ui';
import { SearchBox } from './SearchBox';

export const Navbar = () => {
  const view = narrow.value;
  const title = viewTitle(view, channels.value, people.value, me.value.userId);
  const description = view.kind === 'channel' ? channels.value.subs.get(view.streamId)?.description : undefined;
  return (
    <header id="navbar" class="navbar">
      <a class="brand" href="#inbox">
        <span class="brand-mark" aria-hidden="true" />
        <span class="realm-name">{realm.value.name}</span>
      </a>
      <div id="message_view_header" class="message_view_header">
        <span class="view-title">{title}</span>
        {description && <span class="view-description">{description}</span>}
      </div>
      <SearchBox />
      <div class="account">
        {counts.value.total > 0 && (
          <span class="total-unread" title="Unread messages">
            {counts.value.total}
          </span>
        )}
        <span class="my-name">{me.value.fullName}</span>
        <a class="settings-link" href="#settings/profile" title="Personal settings">
          Settings
        </a>
        <button
          type="button"
          class="gear-menu-button"
          aria-label="Main menu"
          aria-haspopup="menu"
          onClick={(e) => (popover.value = { kind: 'gear-menu', at: anchorOf(e.currentTarget) })}
        >
          ⚙
        </button>
        <button type="button" class="logout" onClick={signOut}>
          Log out
        </button>
      </div>
    </header>
  );
};
