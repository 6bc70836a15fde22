// Multipart bodies with file parts, as API Gateway hands them to a function (base64-encoded).

const BOUNDARY = '----uploadboundary7MA4YWxkTrZu0gW';

export type FilePart = { field?: string; filename: string; contentType?: string; content: Buffer };

/** A multipart body as API Gateway hands it over: base64-encoded. */
export const multipart = (files: FilePart[], fields: Record<string, string> = {}) => {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.filename}"\r\n` +
          `Content-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    body: Buffer.concat(chunks).toString('base64'),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    isBase64Encoded: true,
  };
};
