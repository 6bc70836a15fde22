// Benchmark of an organization's data export (POST /export/realm's realmExport job) against
// DynamoDB Local and the local S3 store: the development organization with BENCH_EXPORT_MESSAGES
// more messages (10,000 by default; on two heavily shared cores writing 5,000 took 160 s, so the
// issue's 100,000 was not measured) in a public channel, each with a row for every human user of
// realm 2 (11 rows), a third with a reaction. Prints the job's runs, messages a
// second, DynamoDB requests and read units per 1,000 messages, and the archive's size. Run by `npm
// run bench` (section `export`), or alone: `npm run bench export`.
import { checkStartRealmExport } from '../lib/actions/organization/exports';
import type { Message } from '../lib/models/message';
import { reactionKey } from '../lib/models/reaction';
import { raiseCounter, type Item } from '../lib/store/common';
import { getFile } from '../lib/store/files';
import { defineJob, holdJobs, settleJobs } from '../lib/store/jobs';
import { buildMessageItem, buildUserMessageItem } from '../lib/store/messages';
import * as exportsStore from '../lib/store/realm-exports';
import * as realmsStore from '../lib/store/realms';
import * as usersStore from '../lib/store/users';
import { doRealmExportRun, type ExportJob } from '../lib/actions/organization/export-job';
import { costOf, writeAllItems } from './bench-util';
import { startLocalS3 } from './local-s3';

const REALM = 2;
const VERONA = 3;
const IAGO = 11;
const MESSAGES = Number(process.env.BENCH_EXPORT_MESSAGES ?? 10_000);

/** Writes `count` channel messages after the organization's newest, with their rows; returns the first new id. */
const writeMessages = async (count: number, memberIds: number[]): Promise<number> => {
  const first = (await exportsStore.readCounter(`message#${REALM}`)) + 1;
  const now = Math.floor(Date.now() / 1000);
  const items: Item[] = [];
  for (let i = 0; i < count; i += 1) {
    const m: Message = {
      id: first + i,
      realmId: REALM,
      senderId: memberIds[i % memberIds.length]!,
      streamId: VERONA,
      topic: `export bench ${i % 50}`,
      dmUserIds: [],
      content: `Message ${i} of the export benchmark, long enough to look like a sentence someone typed.`,
      renderedContent: `<p>Message ${i} of the export benchmark, long enough to look like a sentence someone typed.</p>`,
      dateSent: now - count + i,
      ...(i % 3 === 0
        ? {
            reactions: {
              [reactionKey(IAGO, 'unicode_emoji', '1f44d')]: {
                userId: IAGO,
                emojiName: '+1',
                emojiCode: '1f44d',
                reactionType: 'unicode_emoji' as const,
                addedAt: now * 1000,
              },
            },
          }
        : {}),
    };
    items.push(buildMessageItem(m), ...memberIds.map((userId) => buildUserMessageItem(m, userId, i % 2 === 0 ? ['read'] : [])));
  }
  await writeAllItems(items);
  await raiseCounter(`message#${REALM}`, first + count - 1);
  return first;
};

/**
 * Runs a public export of organization `realmId`, started by its administrator `adminId`, through
 * the realmExport job's runs, and prints its table: runs, time, messages a second, DynamoDB
 * requests and units per 1,000 message ids, the archive's size. The import benchmark calls it on
 * what it imported.
 */
export const measureExport = async (realmId: number, adminId: number): Promise<void> => {
  const total = await exportsStore.readCounter(`message#${realmId}`);
  let runs = 0;
  defineJob<ExportJob>('realmExport', async (job) => {
    runs += 1;
    await doRealmExportRun(job);
  });
  const realm = (await realmsStore.get(realmId))!;
  const admin = (await usersStore.get(realmId, adminId))!;
  holdJobs();
  const id = await checkStartRealmExport(admin, realm, 'public');
  const cost = await costOf(() => settleJobs());
  defineJob('realmExport', doRealmExportRun);
  const row = (await exportsStore.getRealmExport(realmId, id))!;
  if (row.status !== 'succeeded') throw new Error(`the export ended ${row.status}`);
  const archive = (await getFile(row.exportPath!))!;
  const perThousand = (n: number) => ((n / total) * 1000).toFixed(1);
  console.log(
    `| message ids read | job runs | total s | messages/s | requests / 1,000 msgs | read units / 1,000 msgs | write units | archive |\n` +
      `|---|---|---|---|---|---|---|---|\n` +
      `| ${total.toLocaleString('en')} | ${runs} | ${(cost.ms / 1000).toFixed(1)} | ${Math.round(total / (cost.ms / 1000)).toLocaleString('en')} | ` +
      `${perThousand(cost.requests)} | ${perThousand(cost.readUnits)} | ${cost.writeUnits.toFixed(0)} | ${(archive.length / 1024 / 1024).toFixed(1)} MB |`,
  );
};

export const benchExport = async (): Promise<void> => {
  const s3 = await startLocalS3();
  try {
    const members = (await usersStore.listOfRealm(REALM)).filter((u) => !u.isBot).map((u) => u.id);
    console.log(`\n## Export: ${MESSAGES.toLocaleString('en')} more messages, ${members.length} rows each`);
    const written = performance.now();
    await writeMessages(MESSAGES, members);
    console.log(`(written in ${((performance.now() - written) / 1000).toFixed(1)} s)`);
    await measureExport(REALM, IAGO);
  } finally {
    await s3.stop();
  }
};
