// The list of keyboard shortcuts (upstream's ? overlay), the ones keyboard.ts handles.
import { CloseButton, DialogFrame } from './Popover';

const SHORTCUTS: [string, string][] = [
  ['j / k', 'Next / previous message'],
  ['n', 'Next unread topic'],
  ['r or Enter', 'Reply to the selected message'],
  ['c', 'New topic'],
  ['x', 'New direct message'],
  ['/', 'Search'],
  ['Esc', 'Close a menu or dialog; leave a field'],
  ['?', 'Show the keyboard shortcuts'],
];

export const ShortcutsDialog = () => (
  <DialogFrame label="Keyboard shortcuts" class="keyboard_shortcuts" id="keyboard-shortcuts">
    <table class="hotkeys_table">
      <tbody>
        {SHORTCUTS.map(([keys, what]) => (
          <tr key={keys}>
            <td class="hotkey">
              <kbd>{keys}</kbd>
            </td>
            <td>{what}</td>
          </tr>
        ))}
      </tbody>
    </table>
    <div class="dialog_buttons">
      <CloseButton label="Close" />
    </div>
  </DialogFrame>
);
