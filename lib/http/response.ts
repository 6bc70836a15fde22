export type HttpResponse = { statusCode: number; headers: Record<string, string>; body: string };

/** A JSON response; bodies end with a newline, as upstream's orjson responses do. */
export const jsonResponse = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: `${JSON.stringify(body)}\n`,
});

/** The success envelope: `{"result":"success","msg":"", ...data}`. */
export const jsonSuccess = (data: Record<string, unknown> = {}, ignored: string[] = []): HttpResponse =>
  jsonResponse(200, {
    result: 'success',
    msg: '',
    ...data,
    ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
  });
