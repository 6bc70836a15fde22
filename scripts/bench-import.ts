// Benchmark of `npm run import-realm` (lib/actions/organization/import-realm.ts) against DynamoDB
// Local and the local S3 store: a made-up export (scripts/export-fixture.ts) of
// BENCH_IMPORT_USERS members (10) in one channel with BENCH_IMPORT_MESSAGES messages (100,000 by
// default), each with a row per member, a reaction on every third, streamed from memory as the
// CLI streams a file. Prints the import's time, messages a second, and DynamoDB requests and
// write units per 1,000 messages (rows included: 10 a message here); then exports what it imported
// (bench-export.ts measureExport), so one run gives both directions at the same size. Run by `npm
// run bench` (section `import`), or alone: `npm run bench import`.
import { Readable } from 'node:stream';
import { doImportRealm } from '../lib/actions/organization/import-realm';
import * as usersStore from '../lib/store/users';
import { costOf } from './bench-util';
import { measureExport } from './bench-export';
import { archiveOf, fixtureFiles } from './export-fixture';
import { startLocalS3 } from './local-s3';

const MESSAGES = Number(process.env.BENCH_IMPORT_MESSAGES ?? 100_000);
const USERS = Number(process.env.BENCH_IMPORT_USERS ?? 10);

export const benchImport = async (): Promise<void> => {
  const s3 = await startLocalS3();
  try {
    console.log(`\n## Import: ${MESSAGES.toLocaleString('en')} messages, ${USERS} rows each`);
    const archive = await archiveOf(fixtureFiles({ users: USERS, messages: MESSAGES }));
    let result: Awaited<ReturnType<typeof doImportRealm>> | undefined;
    const cost = await costOf(async () => {
      result = await doImportRealm(Readable.from(archive), `bench-import-${Date.now().toString(36)}`);
    });
    const perThousand = (n: number) => ((n / MESSAGES) * 1000).toFixed(0);
    console.log(
      `| messages | archive | total s | messages/s | requests / 1,000 msgs | write units / 1,000 msgs |\n` +
        `|---|---|---|---|---|---|\n` +
        `| ${result!.messages.toLocaleString('en')} | ${(archive.length / 1024 / 1024).toFixed(1)} MB | ${(cost.ms / 1000).toFixed(1)} | ` +
        `${Math.round(MESSAGES / (cost.ms / 1000)).toLocaleString('en')} | ${perThousand(cost.requests)} | ${perThousand(cost.writeUnits)} |`,
    );
    const realmId = result!.realm.id;
    const owner = (await usersStore.listOfRealm(realmId)).find((u) => u.role === 100)!;
    console.log(`\n## Export of the imported organization (public export)`);
    await measureExport(realmId, owner.id);
  } finally {
    await s3.stop();
  }
};
