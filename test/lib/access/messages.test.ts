// Message access has one home (lib/access/messages.ts): MessageViewer.canSee is upstream's
// has_message_access, and accessMessage loads one message and asks it. Against the development
// data: 1 in public Venice, 2 a direct message Cordelia → Iago, 3 in the private "core team" with
// protected history (Desdemona, Hamlet and Iago subscribed), 15 in the other organization.
import { accessMessage, MessageViewer } from '../../../lib/access/messages';
import type { User } from '../../../lib/models/user';
import { dbMetrics } from '../../../lib/store/client';
import * as messagesStore from '../../../lib/store/messages';
import * as usersStore from '../../../lib/store/users';

const CORDELIA = 8;
const HAMLET = 10;
const IAGO = 11;
const POLONIUS = 13; // a guest, subscribed to Verona only

const user = async (id: number): Promise<User> => (await usersStore.get(2, id))!;

/** Whether MessageViewer.canSee lets the user see the message, given whether they hold a row of it. */
const canSee = async (userId: number, messageId: number): Promise<boolean> => {
  const viewer = new MessageViewer(await user(userId));
  const [message] = await messagesStore.getMessagesByIds(2, [messageId]);
  const row = await messagesStore.getUserMessage(userId, messageId);
  return message !== undefined && viewer.canSee(message, row !== undefined);
};

/** Whether accessMessage grants the message ("Invalid message(s)" otherwise). */
const accessible = async (userId: number, messageId: number): Promise<boolean> =>
  accessMessage(await user(userId), messageId, { modifying: false }).then(
    () => true,
    (e: Error) => {
      expect(e.message).toBe('Invalid message(s)');
      return false;
    },
  );

describe('message access', () => {
  it.each([
    ['a direct message to the user', IAGO, 2, true],
    ["someone else's direct message", HAMLET, 2, false],
    ['a public channel message, to a non-subscribed member', CORDELIA, 1, true],
    ['a public channel message, to a guest who is not subscribed', POLONIUS, 1, false],
    ['a protected-history message the subscriber received', HAMLET, 3, true],
    ['a private channel message, to a user who is not subscribed', CORDELIA, 3, false],
    ["another organization's message", IAGO, 15, false],
  ])('%s: canSee and accessMessage give the same answer', async (_, userId, messageId, expected) => {
    expect(await canSee(userId, messageId)).toBe(expected);
    expect(await accessible(userId, messageId)).toBe(expected);
  });

  it("reads a channel and the user's standing in it once per request when given the request's viewer", async () => {
    const cordelia = await user(CORDELIA);
    const viewer = new MessageViewer(cordelia);
    await accessMessage(cordelia, 6, { modifying: false, viewer });
    dbMetrics.reset();
    const { message, channel } = await accessMessage(cordelia, 7, { modifying: false, viewer });
    expect([message.id, channel?.name]).toEqual([7, 'Verona']);
    expect(dbMetrics.byCommand).toEqual({ GetItemCommand: 2 }); // the message and the user's row, nothing of the channel
  });

  it('refuses a message of an archived channel when modifying, as canSee does', async () => {
    const iago = await user(IAGO);
    const archived = { realmId: 2, streamId: 7 };
    const viewer = new MessageViewer(iago);
    expect(await viewer.canSee(archived, true)).toBe(true);
    expect(await viewer.canSee(archived, true, { modifying: true })).toBe(false);
  });
});
