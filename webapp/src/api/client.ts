// The one place requests go out (upstream's channel.ts): /json/ with the session cookie,
// form-urlencoded parameters (JSON for non-strings, as upstream's web app sends them), the CSRF
// token of the page on every non-GET request, and a signed-out session sent to the login page.

/** An error answer of the API: `{"result":"error","msg","code"}`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** No answer, or a 5xx: worth retrying later. */
class NetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

type Params = Record<string, unknown>;

/** The token the server rendered into the page's logout form. */
export const csrfToken = (): string =>
  document.querySelector<HTMLInputElement>('#logout_form input[name="csrfmiddlewaretoken"]')?.value ?? '';

const encode = (params: Params): URLSearchParams => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    body.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return body;
};

const signIn = (): void => {
  window.location.assign('/login/');
};

export const request = async <T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  params: Params | FormData = {},
  signal?: AbortSignal,
): Promise<T> => {
  // A FormData is sent as it is (multipart: a file, as upstream's uploads send one).
  const form = params instanceof FormData ? params : undefined;
  const query = method === 'GET' && !form ? `?${encode(params as Params).toString()}` : '';
  let response: Response;
  try {
    response = await fetch(`/json/${path}${query}`, {
      method,
      credentials: 'same-origin',
      headers: method === 'GET' ? {} : { 'X-CSRFToken': csrfToken() },
      body: method === 'GET' ? undefined : (form ?? encode(params as Params)),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }
  if (response.status === 401) {
    signIn();
    throw new ApiError('Not signed in', 'UNAUTHORIZED', 401);
  }
  const body = (await response.json().catch(() => undefined)) as ({ result?: string; msg?: string; code?: string } & T) | undefined;
  if (response.status >= 500 || body === undefined) throw new NetworkError(`HTTP ${response.status}`);
  if (!response.ok || body.result !== 'success')
    throw new ApiError(body.msg ?? `HTTP ${response.status}`, body.code ?? 'BAD_REQUEST', response.status);
  return body;
};
