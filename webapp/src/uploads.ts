// Uploading a file from the compose box (POST /json/user_uploads, multipart `file`, as upstream's
// upload.ts sends it): through XMLHttpRequest, whose upload progress fetch does not report; the
// file then becomes a Markdown link `[name](url)` in the message.
import { csrfToken } from './api/client';

export type UploadAnswer = { url: string; filename: string };

/** Uploads a file, reporting the share sent (0 to 1); rejects with the server's message. */
export const uploadFile = (file: File, onProgress: (share: number) => void): Promise<UploadAnswer> =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/json/user_uploads');
    xhr.setRequestHeader('X-CSRFToken', csrfToken());
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { result?: string; msg?: string; url?: string; uri?: string; filename?: string } | null;
      if (xhr.status === 200 && body?.result === 'success') resolve({ url: body.url ?? body.uri!, filename: body.filename ?? file.name });
      else reject(new Error(body?.msg ?? `The upload failed (HTTP ${xhr.status}).`));
    };
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached.'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });

/** The Markdown upstream inserts for an uploaded file. */
export const uploadLink = (answer: UploadAnswer): string => `[${answer.filename.replace(/[[\]]/g, '')}](${answer.url})`;
