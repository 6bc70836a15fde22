import { handler as updatePresence } from '../../../functions/presence/update';
import { handler as deactivateUser } from '../../../functions/users/deactivate';
import { handler as updateSettings } from '../../../functions/settings/update';
import { handler as register } from '../../../functions/events/register';
import { handler as updateRealm } from '../../../functions/realm/update';
import { handler as sendDigests } from '../../../functions/jobs/send-digests';
import { doSendDigests, type DigestJob } from '../../../lib/actions/digests/send';
import { JOBS } from '../../../lib/actions/jobs';
import { freezeClock, resetClock } from '../../../lib/clock';
import { digestWeekday } from '../../../lib/models/digest';
import type { User } from '../../../lib/models/user';
import { settingsOfUser } from '../../../lib/models/user-settings';
import { defineJob, runJobsInProcess, settleJobs } from '../../../lib/store/jobs';
import * as usersStore from '../../../lib/store/users';
import { call, expectSuccess } from '../../helpers/api';
import { callPage, pageText } from '../../helpers/web';
import { createChannel, digestsTo, newOrganization, newPerson, post, type Organization } from './helpers';

const DAY_MS = 86_400_000;
/** A Tuesday (upstream's default digest weekday, 1), at the daily schedule's hour. */
const DIGEST_DAY_MS = Date.UTC(2030, 5, 4, 18, 0, 0);
const TUESDAY = 1;

/** The day's run, as EventBridge Scheduler invokes the function, and every run it starts. */
const runDay = async (): Promise<void> => {
  await sendDigests({});
  await settleJobs();
};

const setSetting = async (user: User, params: Record<string, unknown>): Promise<void> => {
  expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as: user.email, params }));
};

/** The organization of most tests: its people, traffic in the 5 days before the digest day, and the runs its day's run started. */
let org: Organization;
let people: Record<'reader' | 'hidden' | 'active' | 'settingOff' | 'bot' | 'deactivated' | 'ann' | 'bob' | 'cat', User>;
const runs: DigestJob[] = [];

beforeAll(async () => {
  expect(digestWeekday(DIGEST_DAY_MS / 1000)).toBe(TUESDAY);
  freezeClock(DIGEST_DAY_MS - 10 * DAY_MS);
  org = await newOrganization({ enabled: true, weekday: TUESDAY });
  const person = (name: string, bot = false) => newPerson(org, name, bot);
  people = {
    reader: await person('Rita Reader'),
    hidden: await person('Hugo Hidden'),
    active: await person('Abel Active'),
    settingOff: await person('Otto Off'),
    bot: await person('Digest Bot', true),
    deactivated: await person('Dora Gone'),
    ann: await person('Ann Alpha'),
    bob: await person('Bob Beta'),
    cat: await person('Cat Gamma'),
  };
  await setSetting(people.settingOff, { enable_digest_emails: false });
  await setSetting(people.hidden, { message_content_in_email_notifications: false });
  expectSuccess(
    await call(deactivateUser, {
      method: 'DELETE',
      path: `/users/${people.deactivated.id}`,
      pathParameters: { user_id_or_email: String(people.deactivated.id) },
      as: org.owner.email,
    }),
  );

  freezeClock(DIGEST_DAY_MS - 2 * DAY_MS);
  const { ann, bob, cat } = people;
  const fresh = await createChannel(ann, 'fresh ideas');
  const secret = await createChannel(org.owner, 'secret plans', true);
  // alpha: 3 senders; beta: 2 senders, 6 messages; gamma: 5 by one; delta: 2 by one; epsilon: 1 by one and the bot's.
  await post(ann, org.general, 'alpha');
  await post(bob, org.general, 'alpha');
  await post(cat, org.general, 'alpha');
  await post(ann, org.general, 'beta', 3);
  await post(bob, org.general, 'beta', 3);
  await post(cat, org.general, 'gamma', 5);
  await post(ann, org.general, 'delta', 2);
  await post(bob, org.general, 'epsilon');
  await post(ann, fresh, 'launch');
  await post(org.owner, secret, 'hush', 6);

  freezeClock(DIGEST_DAY_MS - DAY_MS);
  expectSuccess(
    await call(updatePresence, { method: 'POST', path: '/users/me/presence', as: people.active.email, params: { status: 'active' } }),
  );

  freezeClock(DIGEST_DAY_MS);
  process.env.DIGEST_USERS_PER_RUN = '3';
  defineJob<DigestJob>('sendDigests', async (job) => {
    runs.push(job);
    await doSendDigests(job);
  });
  try {
    await runDay();
  } finally {
    runJobsInProcess(JOBS);
    delete process.env.DIGEST_USERS_PER_RUN;
  }
});

afterAll(() => resetClock());

describe('who gets the weekly digest', () => {
  it('emails a member who has not been active for 5 days one digest, from Zulip Digest, named after the organization', async () => {
    const emails = await digestsTo(people.reader);
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe(`Zulip digest for ${org.realm.name}`);
    expect(emails[0].from).toContain('Zulip Digest');
  });

  it('emails nobody active in the last 5 days, nobody with enable_digest_emails off, no bot and no deactivated user', async () => {
    for (const user of [people.active, people.settingOff, people.bot, people.deactivated]) expect(await digestsTo(user)).toEqual([]);
  });

  it('goes through the organization a page of users per run: one run per page of DIGEST_USERS_PER_RUN users, each starting the next', async () => {
    const users = (await usersStore.listOfRealm(org.realm.id)).length;
    const ofOrg = runs.filter((r) => r.realmId === org.realm.id);
    expect(ofOrg.length).toBe(Math.ceil(users / 3) + (users % 3 === 0 ? 1 : 0));
    expect(ofOrg[0]).toEqual({ realmId: org.realm.id, at: DIGEST_DAY_MS / 1000 });
    expect(ofOrg.slice(1).every((r) => typeof r.after === 'number')).toBe(true);
  });

  it('emails nobody in an organization with digests off, or whose digest weekday is not today', async () => {
    freezeClock(DIGEST_DAY_MS - 3 * DAY_MS);
    const off = await newOrganization({ enabled: false, weekday: TUESDAY });
    const wednesday = await newOrganization({ enabled: true, weekday: 2 });
    const quiet = [await newPerson(off, 'Quiet Off'), await newPerson(wednesday, 'Quiet Wednesday')];
    await createChannel(off.owner, 'new here');
    await createChannel(wednesday.owner, 'new there');
    freezeClock(DIGEST_DAY_MS);
    await runDay();
    for (const user of [...quiet, off.owner, wednesday.owner]) expect(await digestsTo(user)).toEqual([]);
    freezeClock(DIGEST_DAY_MS + DAY_MS);
    await runDay();
    expect(await digestsTo(quiet[1])).toHaveLength(1);
    expect(await digestsTo(quiet[0])).toEqual([]);
  });
});

describe('what the digest says', () => {
  it('shows the hot conversations: the two with the most senders, then the longest, at most 4, with 2 messages each as a teaser', async () => {
    const [email] = await digestsTo(people.reader);
    const headers = [...email.text.matchAll(/^#general > (\w+)$/gm)].map((m) => m[1]);
    expect(headers).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect(email.text).toContain(
      'Ann Alpha:\n> alpha from Ann Alpha #1\n\nBob Beta:\n> alpha from Bob Beta #1\n\n+ 1 more message by Ann Alpha, Bob Beta and Cat Gamma.',
    );
    expect(email.text).toContain('+ 4 more messages by Ann Alpha and Bob Beta.');
    expect(email.text).not.toContain('epsilon');
    expect(email.html).toContain('/#narrow/channel/');
  });

  it('lists the new public channels, and never a private channel or its messages', async () => {
    const [email] = await digestsTo(people.reader);
    expect(email.text).toContain('** New channels **\n    fresh ideas.');
    expect(email.text).not.toContain('secret');
    expect(email.text).not.toContain('hush');
    expect(email.text).not.toContain('launch');
    expect(email.html).toContain('>fresh ideas</a>');
  });

  it('counts the new messages instead of showing them to a member who hides message content in emails', async () => {
    const [email] = await digestsTo(people.hidden);
    expect(email.text).toContain(`You have 17 new messages, and there are 1 new channels in ${org.realm.name}.`);
    expect(email.text).toContain('because you have chosen to hide message content in email notifications');
    expect(email.text).not.toContain('alpha');
  });

  it('ends with the way in, the preferences and a one-click unsubscribe link', async () => {
    const [email] = await digestsTo(people.reader);
    expect(email.text).toMatch(/Log in to Zulip to catch up: http:\/\/digest\w+\.[^\s]+\./);
    expect(email.text).toMatch(/Unsubscribe from digest emails:\n\nhttp:\/\/[^\s]+\/accounts\/unsubscribe\/digest\/[\w-]+$/);
  });
});

describe('sending once', () => {
  it('a retried day run, and two runs of one page at once, send nobody a second digest', async () => {
    freezeClock(DIGEST_DAY_MS);
    await runDay();
    const page: DigestJob = { realmId: org.realm.id, at: DIGEST_DAY_MS / 1000 };
    await Promise.all([doSendDigests(page), doSendDigests(page)]);
    await settleJobs();
    expect(await digestsTo(people.reader)).toHaveLength(1);
    expect(await digestsTo(people.hidden)).toHaveLength(1);
  });
});

describe('when SES does not take the email', () => {
  it('fails the run and gives the claim back, so that the retried run sends the digest', async () => {
    freezeClock(DIGEST_DAY_MS - 2 * DAY_MS);
    const other = await newOrganization({ enabled: true, weekday: TUESDAY });
    const idle = await newPerson(other, 'Ida Idle');
    await createChannel(other.owner, 'brand new');
    freezeClock(DIGEST_DAY_MS);
    const ses = process.env.SES_ENDPOINT;
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    process.env.SES_ENDPOINT = 'http://127.0.0.1:9';
    try {
      await expect(runDay()).rejects.toThrow('a background job failed every attempt');
    } finally {
      process.env.SES_ENDPOINT = ses;
      quiet.mockRestore();
    }
    expect(await digestsTo(idle)).toEqual([]);
    await runDay();
    expect(await digestsTo(idle)).toHaveLength(1);
  });
});

describe('unsubscribing', () => {
  it('turns enable_digest_emails off with the link, without signing in; next week brings no digest', async () => {
    const [email] = await digestsTo(people.reader);
    const link = new URL(/http:\/\/\S+\/accounts\/unsubscribe\/digest\/[\w-]+/.exec(email.text)![0]);
    const page = await callPage(link.pathname, { host: link.host });
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain(`You've successfully unsubscribed from digest emails for ${org.realm.name}.`);
    const after = (await usersStore.get(org.realm.id, people.reader.id, { consistent: true }))!;
    expect(settingsOfUser(after).enable_digest_emails).toBe(false);
    freezeClock(DIGEST_DAY_MS + 5 * DAY_MS);
    await post(people.ann, org.general, 'next week', 2);
    freezeClock(DIGEST_DAY_MS + 7 * DAY_MS);
    await runDay();
    expect(await digestsTo(people.reader)).toHaveLength(1);
    expect(await digestsTo(people.hidden)).toHaveLength(2);
  });
});

describe('the organization settings', () => {
  it('PATCH /realm sets digest_weekday (0 to 6), refuses any other value with nothing changed, and register reports it', async () => {
    const realmUpdate = (value: unknown) =>
      call(updateRealm, { method: 'PATCH', path: '/realm', as: org.owner.email, params: { digest_weekday: value } });
    expectSuccess(await realmUpdate(6));
    const bad = await realmUpdate(7);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid digest_weekday: Value error, Not in the list of possible values',
    });
    const state = await call(register, {
      method: 'POST',
      path: '/register',
      as: org.owner.email,
      params: { fetch_event_types: ['realm'] },
    });
    expect(state.body.realm_digest_weekday).toBe(6);
    // The server sends digests: clients show their settings (upstream's SEND_DIGEST_EMAILS).
    expect(state.body.settings_send_digest_emails).toBe(true);
    expectSuccess(await realmUpdate(TUESDAY));
  });
});
