// GET /emails/ (development mode only): the emails sent through the local SES store.
import { listDevelopmentEmails } from '../../lib/actions/way-in/dev-emails';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { devEmailsPage } from '../../lib/web/dev-emails';
import { pageNotFound } from '../../lib/web/page-handler';

const html = (statusCode: number, body: string) =>
  new RawResponse({ statusCode, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, body });

export const handler = publicApiHandler(async () => {
  const emails = await listDevelopmentEmails();
  // Outside development mode, the page of an unknown path (functions/fallback/not-found.ts).
  return emails === undefined ? new RawResponse(pageNotFound()) : html(200, devEmailsPage(emails));
});
