// The dialogs a message's menu opens: edit its Markdown, confirm its deletion, see who read it.
// Each shows the server's refusal in place and stays open; a success closes it, and the server's
// event then changes the message for everyone.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { namesOf } from '../data/people';
import { deleteMessage, editMessage, rawContent, readReceipts } from '../message-actions';
import { people } from '../store';
import { closePopover } from '../ui';
import { CloseButton, DialogFrame, ErrorLine } from './Popover';

const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : 'The server could not be reached.');

/** Runs a dialog's request: closes the dialog when it succeeds, shows the error when not. */
const useSubmit = () => {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (work: () => Promise<void>) => {
    setBusy(true);
    work().then(closePopover, (e: unknown) => {
      setError(messageOf(e));
      setBusy(false);
    });
  };
  return { error, busy, submit, setError };
};

export const EditDialog = ({ messageId }: { messageId: number }) => {
  const [content, setContent] = useState<string | null>(null);
  const { error, busy, submit, setError } = useSubmit();
  useEffect(() => {
    rawContent(messageId).then(setContent, (e: unknown) => setError(messageOf(e)));
  }, [messageId]);
  return (
    <DialogFrame label="Edit message" class="message_edit" id="message-edit-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (content !== null) submit(() => editMessage(messageId, content));
        }}
      >
        <textarea
          class="message_edit_content"
          aria-label="Message"
          rows={5}
          disabled={content === null}
          value={content ?? 'Loading…'}
          onInput={(e) => setContent(e.currentTarget.value)}
        />
        <ErrorLine error={error} />
        <div class="dialog_buttons">
          <CloseButton label="Cancel" />
          <button type="submit" class="dialog_submit message_edit_save" disabled={busy || content === null}>
            Save
          </button>
        </div>
      </form>
    </DialogFrame>
  );
};

export const DeleteDialog = ({ messageId }: { messageId: number }) => {
  const { error, busy, submit } = useSubmit();
  return (
    <DialogFrame label="Delete message?" class="delete_message_dialog" id="delete-message-dialog">
      <p>Deleting a message permanently removes it for everyone.</p>
      <ErrorLine error={error} />
      <div class="dialog_buttons">
        <CloseButton label="Cancel" />
        <button type="button" class="dialog_submit danger" disabled={busy} onClick={() => submit(() => deleteMessage(messageId))}>
          Confirm
        </button>
      </div>
    </DialogFrame>
  );
};

export const ReadReceiptsDialog = ({ messageId }: { messageId: number }) => {
  const [ids, setIds] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    readReceipts(messageId).then(setIds, (e: unknown) => setError(messageOf(e)));
  }, [messageId]);
  return (
    <DialogFrame label="Read receipts" class="read_receipts" id="read-receipts-dialog">
      <ErrorLine error={error} />
      {ids === null && !error && <p>Loading…</p>}
      {ids !== null && (
        <>
          <p class="read_receipts_count">
            {ids.length === 1 ? 'This message has been read by 1 person:' : `This message has been read by ${ids.length} people:`}
          </p>
          <ul class="read_receipts_list">
            {ids.map((id) => (
              <li key={id} data-user-id={id}>
                {namesOf(people.value, [id])}
              </li>
            ))}
          </ul>
        </>
      )}
      <div class="dialog_buttons">
        <CloseButton label="Close" />
      </div>
    </DialogFrame>
  );
};
