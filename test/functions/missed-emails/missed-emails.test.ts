import { handler as updateFlags } from '../../../functions/messages/update-flags';
import { handler as updateSettings } from '../../../functions/settings/update';
import { handler as updateUserTopic } from '../../../functions/topics/update-user-topic';
import { doScheduledJob } from '../../../lib/actions/scheduled-jobs';
import { advanceClock, freezeClock } from '../../../lib/clock';
import type { User } from '../../../lib/models/user';
import { listLocalSentEmails, type SentEmail } from '../../../lib/store/emails';
import { JOBS } from '../../../lib/actions/jobs';
import { defineJob, runJobsInProcess, settleJobs } from '../../../lib/store/jobs';
import * as realmsStore from '../../../lib/store/realms';
import { clearInProcessSchedules, listInProcessSchedules } from '../../../lib/store/schedules';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { sendMessageId } from '../../helpers/messages';
import { HAMLET, newMember, passTime, VERONA } from './helpers';
import { callPage, pageText } from '../../helpers/web';

// Addresses of this file only: the local SES store is shared by every test file of the run.
const DOMAIN = 'missed.example.com';
const START_MS = Date.UTC(2030, 5, 1, 9, 0, 0);

const newUser = (): Promise<User> => newMember(DOMAIN, 'Missed Reader');

/** The emails sent to `address`, but Welcome Bot's. */
const emailsTo = async (address: string): Promise<SentEmail[]> =>
  ((await listLocalSentEmails()) ?? []).filter((e) => e.to.includes(address) && e.subject !== 'DMs with Welcome Bot');

const emailSchedulesOf = (user: User) =>
  listInProcessSchedules().filter((s) => s.name.startsWith('scheduled-email-') && (s.payload as { userId: number }).userId === user.id);

const dm = async (to: User, content: string, from = HAMLET): Promise<number> => {
  const id = await sendMessageId(from, { type: 'direct', to: JSON.stringify([to.id]), content });
  await settleJobs();
  return id;
};

beforeEach(() => freezeClock(START_MS));

describe('missed-message emails', () => {
  it('emails an offline recipient one email of the direct messages still unread after the batching period', async () => {
    const reader = await newUser();
    await dm(reader, 'First **thing**');
    await passTime(30);
    await dm(reader, 'Second thing');
    await passTime(60);
    expect(await emailsTo(reader.email)).toEqual([]);
    await passTime(60);
    const emails = await emailsTo(reader.email);
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe('DMs with King Hamlet');
    expect(emails[0].from).toContain('Zulip notifications');
    expect(emails[0].text).toContain('> First **thing**\n\n> Second thing');
    expect(emails[0].text).toContain('/#narrow/dm/10-dm');
    expect(emails[0].html).toContain('<strong>thing</strong>');
    expect(emails[0].text).toMatch(/\/accounts\/unsubscribe\/missed_messages\/[\w-]+/);
  });

  it('sends nothing when the message is read within the period', async () => {
    const reader = await newUser();
    const id = await dm(reader, 'Read me soon');
    const flags = await call(updateFlags, {
      method: 'POST',
      path: '/messages/flags',
      as: reader.email,
      params: { messages: [id], op: 'add', flag: 'read' },
    });
    expectSuccess(flags);
    await passTime(180);
    expect(await emailsTo(reader.email)).toEqual([]);
  });

  it('sends nothing to a recipient with a live event queue (online), nor schedules anything', async () => {
    const reader = await newUser();
    await openQueue(reader.email);
    await dm(reader, 'You are here');
    expect(emailSchedulesOf(reader)).toEqual([]);
    await passTime(180);
    expect(await emailsTo(reader.email)).toEqual([]);
  });

  it('honors enable_offline_email_notifications and the batching period setting', async () => {
    const off = await newUser();
    expectSuccess(
      await call(updateSettings, {
        method: 'PATCH',
        path: '/settings',
        as: off.email,
        params: { enable_offline_email_notifications: false },
      }),
    );
    await dm(off, 'Not by email');
    const quick = await newUser();
    expectSuccess(
      await call(updateSettings, {
        method: 'PATCH',
        path: '/settings',
        as: quick.email,
        params: { email_notifications_batching_period_seconds: 60 },
      }),
    );
    await dm(quick, 'Quickly');
    await passTime(61);
    expect(await emailsTo(quick.email)).toHaveLength(1);
    await passTime(180);
    expect(await emailsTo(off.email)).toEqual([]);
  });

  it('two runs of one delivery check at once (a retry racing the first) send one email', async () => {
    const reader = await newUser();
    await dm(reader, 'Only once');
    const [schedule] = emailSchedulesOf(reader);
    clearInProcessSchedules();
    advanceClock(121_000);
    const run = () => doScheduledJob(schedule.payload as Parameters<typeof doScheduledJob>[0]);
    await Promise.all([run(), run()]);
    await run();
    expect((await emailsTo(reader.email)).map((e) => e.subject)).toEqual(['DMs with King Hamlet']);
  });

  it('a channel message that mentions nobody and whose channel has no topic followers starts no job', async () => {
    await newUser();
    const started: unknown[] = [];
    defineJob('scheduledDelivery', async (payload) => void started.push(payload));
    try {
      await sendMessageId(HAMLET, { type: 'stream', to: VERONA, topic: 'quiet', content: 'nobody is emailed' });
      await settleJobs();
    } finally {
      runJobsInProcess(JOBS);
    }
    expect(started).toEqual([]);
  });

  it('emails a personal mention in a channel with its topic as the subject, and nothing for a plain channel message', async () => {
    const reader = await newUser();
    await sendMessageId(HAMLET, { type: 'stream', to: VERONA, topic: 'plans', content: 'nothing for anyone' });
    await settleJobs();
    expect(emailSchedulesOf(reader)).toEqual([]);
    await sendMessageId(HAMLET, { type: 'stream', to: VERONA, topic: 'plans', content: `hi @**${reader.fullName}**` });
    await settleJobs();
    await passTime(121);
    const [email] = await emailsTo(reader.email);
    expect(email.subject).toMatch(/^#\S.* > plans$/);
    expect(email.text).toContain('King Hamlet:\n> nothing for anyone');
    expect(email.text).toContain('You are receiving this because you were personally mentioned.');
  });

  it("emails a followed topic's message when enable_followed_topic_email_notifications is on", async () => {
    const reader = await newUser();
    expectSuccess(
      await call(updateUserTopic, {
        method: 'POST',
        path: '/user_topics',
        as: reader.email,
        params: { stream_id: VERONA, topic: 'followed here', visibility_policy: 3 },
      }),
    );
    await sendMessageId(HAMLET, { type: 'stream', to: VERONA, topic: 'followed here', content: 'news' });
    await settleJobs();
    await passTime(121);
    const [email] = await emailsTo(reader.email);
    expect(email.subject).toMatch(/ > followed here$/);
    expect(email.text).toContain('topics you follow');
  });

  it("leaves the content out when the organization's message_content_allowed_in_email_notifications is off", async () => {
    const realm = (await realmsStore.get(2))!;
    const reader = await newUser();
    await realmsStore.put({ ...realm, properties: { ...realm.properties, message_content_allowed_in_email_notifications: false } });
    try {
      await dm(reader, 'Secret words');
      await passTime(121);
    } finally {
      await realmsStore.put(realm);
    }
    const [email] = await emailsTo(reader.email);
    expect(email.subject).toBe('New messages');
    expect(email.text).not.toContain('Secret words');
    expect(email.text).toContain('your organization has disabled message content');
  });

  it('unsubscribes with the link without signing in, and a second email is not sent', async () => {
    const reader = await newUser();
    await dm(reader, 'With a link');
    await passTime(121);
    const [email] = await emailsTo(reader.email);
    const link = /\/accounts\/unsubscribe\/missed_messages\/[\w-]+/.exec(email.text)![0];
    const page = await callPage(link);
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain("You've successfully unsubscribed from missed messages emails");
    await dm(reader, 'After unsubscribing');
    await passTime(121);
    expect(await emailsTo(reader.email)).toHaveLength(1);
    const bad = await callPage('/accounts/unsubscribe/missed_messages/not-a-token');
    expect(bad.status).toBe(404);
    expect(pageText(bad.body)).toContain("we don't recognize the URL");
  });
});
